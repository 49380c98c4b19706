@real-server
Feature: Servers that heal
  As an operator running an agent for hours, I want a server that crashes to come back by
  itself, calls that cannot harm anything to carry on, and never a write repeated behind my back.

  Background:
    Given a counter server over stdio, connected with recovery on

  Scenario: A crashed server is restarted and reads carry on
    When the server process is killed
    And I read the counter
    Then the read succeeds
    And the server is "connected" again after 1 recovery

  Scenario: A write cut off by a crash is not repeated, and says so
    When the server process is killed while a slow write is running
    Then the write fails saying it may or may not have run
    And the server ran that write at most once

  Scenario: A server that never comes back is marked down, and calls fail fast until it is back
    Given the server will refuse to start
    When the server process is killed
    And I read the counter
    Then the read fails as "unavailable"
    And the server is "down"
    When the server can start again and the cooldown is over
    And I read the counter
    Then the read succeeds
    And the server is "connected" again after 1 recovery
