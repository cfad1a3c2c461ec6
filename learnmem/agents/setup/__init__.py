"""Agent set-up: `learnmem init --claude / --opencode / --uninstall` plans every change to the project's files, then writes."""
