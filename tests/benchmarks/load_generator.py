"""A load generator that costs the servers as little CPU as it can: pre-built HTTP/1.1 requests
sent on raw keep-alive sockets, one connection per lane, each lane's requests one after another
(a command's answer before its next command). Run as its own process, pinned to a core the server
does not use (``bench_real_games`` pins both), so the client's work never competes with the
server's.

``python -m tests.benchmarks.load_generator PORT REQUESTS.pickle [RATE]``: ``REQUESTS.pickle`` holds a
list of lanes, each a list of request bytes; prints JSON: the seconds the whole run took and every
request's latency (seconds), or exits non-zero at the first answer that is not 2xx. ``RATE``:
requests per second in all, spread evenly over the lanes (each lane sends its next request at its
next tick, at once if it is behind); unset, as fast as the server answers.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import sys
import time
from pathlib import Path


async def lane(port: int, requests: list[bytes], latencies: list[float], interval: float = 0.0) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    tick = time.perf_counter()
    try:
        for request in requests:
            if interval:
                tick += interval
                if (wait := tick - time.perf_counter()) > 0:
                    await asyncio.sleep(wait)
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if not 200 <= status < 300:
                raise RuntimeError(f"answer {status}: {body.decode(errors='replace')[:500]}")
    finally:
        writer.close()


async def run(port: int, lanes: list[list[bytes]], rate: float | None = None) -> dict[str, object]:
    latencies: list[float] = []
    interval = len(lanes) / rate if rate else 0.0
    started = time.perf_counter()
    await asyncio.gather(*(lane(port, requests, latencies, interval) for requests in lanes))
    return {"seconds": time.perf_counter() - started, "latencies": latencies}


def main() -> None:
    port, path = int(sys.argv[1]), Path(sys.argv[2])
    lanes: list[list[bytes]] = pickle.loads(path.read_bytes())
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else None
    print(json.dumps(asyncio.run(run(port, lanes, rate))))


if __name__ == "__main__":
    main()
