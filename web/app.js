// The page's script (issue #16).
