"""Learners' attempts and progress (the learner issue fills this in)."""
