"""``python -m search ...`` is ``gridcp ...``."""

import sys

from search.cli import main

sys.exit(main())
