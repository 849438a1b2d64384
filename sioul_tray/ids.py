"""What names a computer in a sharing folder: a ground-floor name that the seal (`share.seal`: a
seal's creator), the lease (its claims) and the installation (`install`) all read.
"""

from __future__ import annotations

import re

# A computer's id: the stem of its claim files (`leases/<part>/<computer>.lease`), the creator a
# seal names, the writer and the keeper each claim names.
COMPUTER_ID = re.compile(r"[a-z0-9_]{1,63}")
