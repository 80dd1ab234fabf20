// The flipper's intake from outside the page: images shared to the installed app, and image
// files opened with it (the File Handling API's launch queue).
import { useEffect, useEffectEvent } from 'react';
import { sharedQuery, takeShared } from './share';

interface LaunchParams {
  files: readonly FileSystemFileHandle[];
}
interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void;
}

/** Calls onFiles with the images the app was given (shared or opened), once each. */
export function useIncomingFiles(onFiles: (files: File[]) => void): void {
  const give = useEffectEvent(onFiles);
  useEffect(() => {
    const url = new URL(location.href);
    if (url.searchParams.has(sharedQuery)) {
      url.searchParams.delete(sharedQuery);
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
      void takeShared().then((files) => files.length > 0 && give(files));
    }
    const queue = (window as { launchQueue?: LaunchQueue }).launchQueue;
    queue?.setConsumer((params) => {
      void Promise.all(params.files.map((h) => h.getFile())).then((files) => files.length > 0 && give(files));
    });
  }, []);
}
