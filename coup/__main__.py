import sys

from coup.cli import main

sys.exit(main())
