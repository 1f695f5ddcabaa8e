// A read that runs once at a time: a call while it runs asks for one more run after it (so
// nothing told meanwhile is missed, and reads never pile up); every caller awaits the runs.

export function coalesced(run) {
  let running = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
