@real-server @stdio
Feature: server-memory over stdio, through a ToolRegistry
  The real @modelcontextprotocol/server-memory keeping its knowledge graph in a temporary file.

  Background:
    Given a connected adapter to server-memory over stdio with a temporary memory file
    And an empty MCP tool registry
    When I register MCP tools in the registry with namespace "memory"

  Scenario: Capabilities follow the server's annotations
    Then registry tool "memory/read_graph" should have read_only capability
    And registry tool "memory/create_entities" should have writes capability
    And registry tool "memory/add_observations" should have writes capability
    And registry tool "memory/delete_entities" should have destructive capability

  Scenario: An entity created through the registry is found again
    When I call registry tool "memory/create_entities" with arguments {"entities": [{"name": "Ada Lovelace", "entityType": "person", "observations": ["wrote the first program"]}]}
    Then the registry call should succeed
    And the memory file should mention "Ada Lovelace"
    When I call registry tool "memory/search_nodes" with arguments {"query": "Ada"}
    Then the registry call should succeed
    And the registry call text should contain "wrote the first program"
