"""Agreement: how far the graders of the same pairs agree, people with people and a model with the people.

- `statistics`: the statistics among assessors (percent agreement, Cohen's kappa, Krippendorff's alpha,
  per assessor pair and in summary), in exact fractions.
- `model`: a model judge against the people (confusion, kappa, per-grade precision and recall, reliability).
- `calibration`: a model's stated grade probabilities mapped to calibrated ones, fitted on the people's labels.

No numeric library anywhere in the package (the `agreement-needs-no-numerics` import contract).
"""
