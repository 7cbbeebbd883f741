"""Output for people and tools: trees, tables, rules, traces, worked arithmetic; the only user of rich."""
