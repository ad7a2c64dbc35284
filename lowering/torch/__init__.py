"""The PyTorch front end: a `.pt2` archive (torch.export.save) read without torch
(archive.py), its core-ATen graph lowered op by op (table.py's rules) into the mhlo module
the rest of the compiler takes (lower.py). See docs/pytorch.md."""
