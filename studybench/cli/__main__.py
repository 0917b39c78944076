"""``python -m studybench.cli``: the same command line as the ``studybench`` script."""

from studybench.cli import main

main()
