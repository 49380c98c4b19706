@real-server @stdio @policy
Feature: Policy: approvals before writing tools, and pinned tool definitions
  As an operator who lets agents and scripts call MCP tools,
  I want a tool that can change things to wait for my approval, and a tool whose definition
  changed since I approved it to be held back, so that nothing writes without my say-so.

  Background:
    Given a config file with server-memory as "memory"

  Scenario: A script cannot call a writing tool unless it says --yes
    When I run "call memory/create_entities" without a terminal, with arguments {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}
    Then the command fails and says "pass --yes to call it without asking"
    When I run "call memory/create_entities --yes" without a terminal, with arguments {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}
    Then the command succeeds

  Scenario: On a terminal I am asked, and no means the tool is not called
    When I run "call memory/create_entities" on a terminal answering "no", with arguments {"entities": [{"name": "Grace", "entityType": "person", "observations": ["found a moth"]}]}
    Then I was asked whether "memory/create_entities may write"
    And the command fails and says "was not approved"
    When I run "call memory/read_graph" without a terminal, with arguments {}
    Then the command succeeds and does not mention "Grace"

  Scenario: A pinned read-only tool that starts writing is held back, and says what changed
    Given I pinned the tools with "pin"
    And the lock file records "read_graph" with another description
    And the lock file records "create_entities" as read-only
    When I run "tools --json" without a terminal
    Then the tool list does not contain "memory/read_graph" or "memory/create_entities"
    And the command says "changed since it was pinned (description)"
    And the command says "it was read-only and may now write, so it is withheld whatever the policy"
