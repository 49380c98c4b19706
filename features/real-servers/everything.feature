@real-server
Feature: server-everything over stdio, SSE and streamable HTTP
  The adapter drives the real @modelcontextprotocol/server-everything through each transport
  the umbrella package wires by default: a child process over stdio, or HTTP on 127.0.0.1.

  Scenario Outline: Discover tools and call echo and get-sum over <transport>
    Given a connected adapter to server-everything over <transport>
    When I discover tools from the adapter
    Then the discovered tools should include "echo", "get-sum" and "get-structured-content"
    When I invoke "echo" with arguments {"message": "hello over <transport>"}
    Then the invocation should succeed
    And the invocation text should contain "Echo: hello over <transport>"
    When I invoke "get-sum" with arguments {"a": 2, "b": 40}
    Then the invocation should succeed
    And the invocation text should contain "is 42"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario Outline: Structured content comes back with its output schema over <transport>
    Given a connected adapter to server-everything over <transport>
    When I discover tools from the adapter
    Then discovered tool "get-structured-content" should have an output schema
    When I invoke "get-structured-content" with arguments {"location": "Chicago"}
    Then the invocation should succeed
    And the structured content field "temperature" should be 36
    And the structured content field "conditions" should be "Light rain / drizzle"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario Outline: A tool's isError result is a failed invocation over <transport>
    Given a connected adapter to server-everything over <transport>
    When I invoke "get-resource-reference" with arguments {"resourceId": 0}
    Then the invocation should fail
    And the invocation error kind should be "server_error"
    And the invocation error should mention "server error"
    And the invocation error should mention "Invalid resourceId"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario Outline: Input that breaks the tool's schema never reaches the server over <transport>
    Given a connected adapter to server-everything over <transport>
    When I invoke "get-sum" with arguments {"a": "two", "b": 1}
    Then the invocation should fail
    And the invocation error kind should be "validation"
    And the invocation error should mention "/a"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

  Scenario Outline: Progress notifications reach the caller over <transport>
    Given a connected adapter to server-everything over <transport>
    When I invoke "trigger-long-running-operation" with arguments {"duration": 1, "steps": 4} reporting progress
    Then the invocation should succeed
    And at least 3 progress updates should have been reported, rising towards a total of 4

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario Outline: A call past its deadline times out and the connection stays usable over <transport>
    Given a connected adapter to server-everything over <transport>
    When I invoke "trigger-long-running-operation" with arguments {"duration": 10, "steps": 10} with a 300 ms timeout
    Then the invocation should fail
    And the invocation error kind should be "timeout"
    And the invocation error should mention "timeout"
    When I invoke "echo" with arguments {"message": "still here"}
    Then the invocation should succeed
    And the invocation text should contain "Echo: still here"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario Outline: Reconnect after the server restarts over <transport>
    Given a connected adapter to server-everything over <transport>
    When I invoke "echo" with arguments {"message": "before"}
    Then the invocation should succeed
    When the server-everything server is restarted
    And I reconnect the adapter
    Then the adapter should be connected
    When I invoke "echo" with arguments {"message": "after"}
    Then the invocation should succeed
    And the invocation text should contain "Echo: after"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @sse
    Examples: SSE
      | transport |
      | sse       |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |
