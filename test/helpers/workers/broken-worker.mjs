// A worker script that cannot start (as when the package's worker file or runtime is missing).
throw new Error('this worker script is broken on purpose');
