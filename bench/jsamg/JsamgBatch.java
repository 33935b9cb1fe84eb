// Side-by-side driver for bench/generate.py --jsamg: runs JSpaceAlertMissionGenerator (JSAMG,
// GPL v3, not part of this repository) for COUNT consecutive seeds in one JVM, writing each
// mission's text output (what JSAMG's "-o text" writes) into DIR, the way `spacealert generate
// --count COUNT -o DIR` writes one file per seed. Compiled against the user's JSAMG classes.
import de.beimax.spacealert.mission.Mission;
import de.beimax.spacealert.mission.MissionImpl;
import de.beimax.spacealert.render.TextRenderer;
import de.beimax.spacealert.util.Options;

public final class JsamgBatch {
    public static void main(String[] args) {
        long first = Long.parseLong(args[0]);
        int count = Integer.parseInt(args[1]);
        String dir = args[2];
        Options options = Options.getOptions();
        int failures = 0;
        for (int i = 0; i < count; i++) {
            options.seed = first + i;
            options.outPutfilePrefix = dir + "/mission-" + (first + i);
            try {
                Mission mission = new MissionImpl();
                mission.generateMission();
                new TextRenderer().output(mission);
            } catch (RuntimeException e) {
                // JSAMG gives up on some seeds with an exception of its own: counted, not hidden.
                failures++;
                System.err.println("seed " + (first + i) + ": " + e);
            }
        }
        System.out.println(failures);
    }
}
