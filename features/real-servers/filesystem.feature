@real-server @stdio
Feature: server-filesystem over stdio, through a ToolRegistry
  The real @modelcontextprotocol/server-filesystem, limited to a fresh temporary directory,
  registered in a ToolRegistry and called only through the registry.

  Background:
    Given a connected adapter to server-filesystem over stdio allowing a temporary directory
    And an empty MCP tool registry
    When I register MCP tools in the registry with namespace "fs"

  Scenario: Capabilities follow the server's annotations, not only tool names
    Then registry tool "fs/read_text_file" should have read_only capability
    And registry tool "fs/directory_tree" should have read_only capability
    And registry tool "fs/write_file" should have writes capability
    And registry tool "fs/move_file" should have writes capability
    And registry tool "fs/move_file" should have destructive capability
    And registry tool "fs/write_file" should have source "mcp"

  Scenario: A file written through the registry reads back
    When I call registry tool "fs/write_file" with arguments {"path": "$DIR/notes.txt", "content": "written by the acceptance suite"}
    Then the registry call should succeed
    And the file "notes.txt" in the temporary directory should contain "written by the acceptance suite"
    When I call registry tool "fs/read_text_file" with arguments {"path": "$DIR/notes.txt"}
    Then the registry call should succeed
    And the registry call text should contain "written by the acceptance suite"

  Scenario: Reading outside the allowed directory fails as a server error
    When I call registry tool "fs/read_text_file" with arguments {"path": "$DIR/../outside.txt"}
    Then the registry call should fail with error kind "server_error"
    And the registry call error should mention "outside allowed directories"
