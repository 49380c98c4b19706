@real-server
Feature: Resources, prompts and server logs
  Besides tools, an MCP server offers documents to read (resources), ready-made prompts with
  arguments to fill in, suggestions while typing those arguments, and log messages. As the
  developer of an agent I want all of them from the same adapter, over stdio and HTTP alike.

  Scenario Outline: Read a server's documents over <transport>
    Given an adapter to server-everything over <transport>
    When I list the server's resources
    Then the server should offer static documents
    And the resource templates should include "demo://resource/dynamic/text/{resourceId}"
    When I read the resource "demo://resource/dynamic/text/3"
    Then the resource text should start with "Resource 3: This is a plaintext resource"
    When I read the resource "demo://resource/dynamic/blob/3"
    Then the resource blob should decode to text starting with "Resource 3: This is a base64 blob"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario: Hear about changes to a document I follow
    Given an adapter to server-everything over stdio
    When I follow the resource "demo://resource/dynamic/text/1"
    And I invoke "toggle-subscriber-updates" with arguments {}
    Then I should hear that "demo://resource/dynamic/text/1" changed
    When I stop following the resource
    And I invoke "toggle-subscriber-updates" with arguments {}
    Then the invocation should succeed

  Scenario: A document larger than I allow is refused, not loaded
    Given an adapter to an in-process server with a 50 MB document, allowing results of 1 MB
    When I read the resource "test://huge"
    Then the read should fail with error kind "result_too_large"

  Scenario Outline: Fill in a prompt over <transport>
    Given an adapter to server-everything over <transport>
    When I list the server's prompts
    Then prompt "args-prompt" should need the argument "city"
    When I get the prompt "args-prompt" with arguments {"city": "Lyon"}
    Then the prompt's first message should be "What's weather in Lyon?"
    When I get the prompt "args-prompt" with arguments {"state": "Rhône"}
    Then the prompt request should fail with error kind "validation" mentioning "required argument \"city\" is missing"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario: Suggestions while filling in a prompt
    Given an adapter to server-everything over stdio
    When I ask for suggestions for "department" of prompt "completable-prompt" starting with "S"
    Then the suggestions should be "Sales, Support"
    When I ask for suggestions for "name" of prompt "completable-prompt" starting with "" after choosing department "Engineering"
    Then the suggestions should be "Alice, Bob, Charlie"

  Scenario: See the server's log messages, tagged with its name
    Given an adapter to server-everything over stdio asking for log messages from level "debug"
    When I invoke "toggle-simulated-logging" with arguments {}
    Then a log message from server "everything" should reach my logger
    When I invoke "toggle-simulated-logging" with arguments {}
    Then the invocation should succeed

  Scenario: A server flooding log messages does not flood my logs
    Given an adapter to an in-process server that logs, forwarding at most 20 log messages a second
    When the server sends 500 log messages at once
    Then at most 20 of them should reach my log listener
    And a tool call should still succeed
