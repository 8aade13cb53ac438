"""bench/report.py's parts: model (what is measured, the targets), load (raw results), stats
(medians, noise, bootstrap intervals), targets (targets.csv), choose (the default policy and
the target checks, pure), why (the numbers behind a missed target, pure), claims (issue 4's
first tries), plots (gnuplot), markdown (RESULTS.md), goals (the README's words on the targets),
readme (the README headline) and main (the order in which they run)."""
