from labeler.cli import main

main()
