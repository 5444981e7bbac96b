import sys

from rulings_anon.cli import main

sys.exit(main())
