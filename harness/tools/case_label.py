"""case_label.py: how the tables of harness/tools name a case from an
export's row (readme_table.py, ab_table.py): "batch x kv_len" for one query
row an item, with ", q_seq_len Q" for several (MTP), and a ragged case
(kv_len -1: items of different lengths) by its name. Two cases never share
a label (the tables once keyed rows by (batch, kv_len): two 64-item ragged
cases, or q_seq_len 1 and 2 of one shape, fell into one row and one was
lost)."""


def case_label(row):
    """The table label of an export row's case (a dict of its columns)."""
    b, kv = int(row["batch"]), int(row["kv_len"])
    q = int(row.get("q_seq_len") or 1)
    if kv < 0:
        return row.get("case_name") or f"{b} x ragged"
    return f"{b} x {kv}" + (f", q_seq_len {q}" if q > 1 else "")


def case_order(row):
    """Sort key: batch, then kv_len, then q_seq_len, then the name."""
    return (int(row["batch"]), int(row["kv_len"]), int(row.get("q_seq_len") or 1), row.get("case_name") or "")
