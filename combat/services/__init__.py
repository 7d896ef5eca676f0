"""Fights between characters. Each kind is one module (duels, unions, beatings, firearms,
searches) driven by the `interactions` section of the event's ruleset; the outcome for
each side is an action of the ruleset, applied through health's services."""
