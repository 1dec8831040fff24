"""What several commands share: the command context (`context`), hints and error words (`hints`),
printing (`printing`), number ranges (`ranges`), option families (`reading`, `program_options`,
`registry_options`, `deprecation`), score lines (`scores`), the model-agreement view (`model_view`)
and the docs' generated tables (`doc_tables`). No command is defined here.
"""
