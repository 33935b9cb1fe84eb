"""Format conversion between our mission files and the formats other Space Alert tools use.

Importers turn JSAMG XML and text, Flash-player code, MA scripts and PS JSON into ``Mission``
objects; exporters write Flash-player code and JSAMG XML. This package imports only the mission
contract and the error tree.
"""
