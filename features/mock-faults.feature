@mock
Feature: Transport faults over a mock transport
  Faults the spec file does not spell out, injected by the fault transports of the
  test-servers package around an in-process SDK server.

  Scenario: Connect times out when the server never answers initialize
    Given an MCP adapter with a transport that never answers initialize
    When I connect the adapter with timeout 0.1 expecting error
    Then the adapter error should mention "connection"
    And the adapter should not be connected

  Scenario: A connection that drops during a call is reported as lost
    Given a connected MCP adapter with a tool whose connection drops mid-call "crash_tool"
    When I invoke "crash_tool" with arguments {}
    Then the invocation should fail
    And the invocation error kind should be "connection_lost"

  Scenario: After a refused connect the adapter can still connect later
    Given an MCP adapter whose first connection attempt is refused
    When I connect the adapter expecting error
    Then the adapter error should mention "connection"
    When I connect the adapter
    Then the adapter should be connected

  Scenario: A failed reconnect leaves the adapter disconnected
    Given a connected MCP adapter with a transport that fails to reconnect
    When I reconnect the adapter expecting error
    Then the adapter should not be connected
    When I invoke MCP tool "tool_0" while disconnected
    Then the adapter error should mention "not connected"

  Scenario: An answer in the 2024-10-07 toolResult shape is normalised to a content list
    Given a connected MCP adapter with a mock tool "legacy_tool" answering in the toolResult shape
    When I invoke "legacy_tool" with arguments {}
    Then the invocation should succeed
    And the invocation result content list should have 1 item
    And the invocation text should contain "legacy answer"
