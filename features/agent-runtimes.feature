@real-server @stdio @agent-runtimes
Feature: Agent runtimes use MCP tools
  As a developer whose agent runs on the Vercel AI SDK, LangChain.js or the OpenAI Agents SDK,
  I want the tools of my MCP servers to be that runtime's own tools, so that my model uses them
  without glue code, cannot change anything without my approval, and is not flooded by a huge result.
  (The model is each framework's own test model, scripted to make the tool call.)

  Background:
    Given server-memory is connected into a tool registry under the namespace "memory"

  Scenario Outline: A model creates an entity in server-memory through <runtime>
    Given an agent on <runtime> with the registry's tools and approval turned off
    When the model calls "memory__create_entities" with {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}
    Then the model reads a tool result that mentions "Ada"
    And the run finishes with the model's answer
    And server-memory knows an entity "Ada"

    @node22
    Examples: runtimes on Node.js 22 and later
      | runtime               |
      | the Vercel AI SDK     |
      | the OpenAI Agents SDK |

    Examples: runtimes on every supported Node.js
      | runtime      |
      | LangChain.js |

  Scenario Outline: A write tool waits for approval on <runtime>
    Given an agent on <runtime> with the registry's tools and the default approval policy
    When the model calls "memory__create_entities" with {"entities": [{"name": "Grace", "entityType": "person", "observations": ["found a moth"]}]}
    Then the run stops to ask for approval of "memory__create_entities"
    And server-memory does not know an entity "Grace"

    @node22
    Examples: runtimes on Node.js 22 and later
      | runtime               |
      | the Vercel AI SDK     |
      | the OpenAI Agents SDK |

    Examples: runtimes on every supported Node.js
      | runtime      |
      | LangChain.js |

  Scenario Outline: A too-large result reaches the model on <runtime> truncated, with a marker
    Given server-memory knows an entity "Babbage" with 40 observations of 200 characters
    And an agent on <runtime> with the registry's tools and results limited to 500 characters
    When the model calls "memory__read_graph" with {}
    Then the model reads a tool result of at most 700 characters
    And the tool result says it was truncated and how to see the rest
    And the run finishes with the model's answer

    @node22
    Examples: runtimes on Node.js 22 and later
      | runtime               |
      | the Vercel AI SDK     |
      | the OpenAI Agents SDK |

    Examples: runtimes on every supported Node.js
      | runtime      |
      | LangChain.js |
