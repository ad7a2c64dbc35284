"""TensorFlow's `tf` and `tf_executor` dialects, as TensorFlow prints them, lowered to this
compiler's HLO/DHLO ops before the HLO stage (lowering/tf/lower.py); one rule per TF op in
lowering/tf/table.py's table, filled by the rule modules (math, shapes, control)."""
