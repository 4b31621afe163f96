"""``python -m search ...`` is ``gridcp ...``."""

import sys

from search.app.cli import main

sys.exit(main())
