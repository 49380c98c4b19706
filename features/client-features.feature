@real-server
Feature: Answering a server's questions: forms, model calls and folders
  A server may ask my user to fill in a form, ask my model for a completion, or ask which
  folders it may work in. As the developer of an agent I decide which of these I support by
  giving a handler; a server never waits on a question nobody will answer.

  Scenario Outline: My user fills in the form a server asks for over <transport>
    Given an adapter to server-everything over <transport> whose user answers forms with {"name": "Ada", "check": true}
    When I invoke "trigger-elicitation-request" with arguments {}
    Then the invocation should succeed
    And the invocation text should contain "Ada"

    @stdio
    Examples: stdio
      | transport |
      | stdio     |

    @streamable-http
    Examples: streamable HTTP
      | transport       |
      | streamable-http |

  Scenario: My model answers a server's sampling request
    Given an adapter to server-everything over stdio whose model answers "Paris is the capital"
    When I invoke "trigger-sampling-request" with arguments {"prompt": "capital of France?"}
    Then the invocation should succeed
    And the invocation text should contain "Paris is the capital"

  Scenario: A form answer that does not fit what the server asked for is not sent
    Given an adapter to an in-process server whose user answers forms with {"age": "old"}
    When the server asks for a form with a required number "age"
    Then the server should get an error mentioning "does not match its requestedSchema"

  Scenario: Without a form handler the server is told at once
    Given an adapter to an in-process server with no client handlers
    Then the server should see no elicitation or sampling capability
    When the server asks for a form with a required number "age"
    Then the server should get the error code -32601

  Scenario: The file server sees exactly the folders I give it
    Given an adapter to server-filesystem over stdio with two temporary folders as roots
    Then the server should soon allow exactly my two folders
    When I change the roots to just the second folder
    Then the server should soon allow only the second folder
