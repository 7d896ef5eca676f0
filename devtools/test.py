"""./test: pytest against DATABASE_URL / REDIS_URL, or an embedded PostgreSQL and Redis."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def test_services():
    """The environment for the tests: DATABASE_URL and REDIS_URL as given, or an embedded
    PostgreSQL and Redis started here and stopped on the way out."""
    env = dict(os.environ)
    redis = None
    if not env.get("REDIS_URL"):
        from devtools import embedded_redis
        redis, env["REDIS_URL"] = embedded_redis.start(ROOT / "var" / "redis-test")
        print(f"Started an embedded Redis at {env['REDIS_URL']}")
    postgres = None
    try:
        if not env.get("DATABASE_URL"):
            from devtools import embedded_postgres
            postgres, env["DATABASE_URL"] = embedded_postgres.start(
                ROOT / "var", "postgres-test", durable=False)
            print(f"Started an embedded PostgreSQL at {env['DATABASE_URL']}")
        print(f"Database: {env['DATABASE_URL']}")
        yield env
    finally:
        if postgres is not None:
            embedded_postgres.stop(postgres)
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)


def main() -> int:
    with test_services() as env:
        return subprocess.call([sys.executable, "-m", "pytest", *sys.argv[1:]], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
