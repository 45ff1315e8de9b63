"""Game records on disk: JSON or the text form, one record or a JSONL file of many."""
