"""Rules for every language: CTX000 parse-error, CTX001 unused-noqa."""
