// Web Push in the service worker (a classic script: sw.js imports it with importScripts).
// Shows what the server pushed, even with the app closed and the screen locked. The
// payload is push/services.py's {title, body, tag, url, kind, urgent?}; an urgent one (a call
// for help, safety/) stays on the screen until touched and buzzes longer.

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data.text() };   // not JSON: still show something, never nothing
  }
  // The vibration of its meaning (haptics.js, the open app's too); a call for help is urgent.
  const kind = data.kind in self.HAPTICS ? data.kind : (data.urgent ? "help_call" : "state");
  const options = { body: data.body || "", data: { url: data.url || "/" }, vibrate: self.HAPTICS[kind] };
  if (data.urgent) options.requireInteraction = true;
  if (data.tag) {
    // One tag per character: the coma replaces its one-minute warning, and still buzzes.
    options.tag = data.tag;
    options.renotify = true;              // renotify without a tag is a TypeError
  }
  // Every push must show a notification (userVisibleOnly), so this promise is waited for.
  event.waitUntil(self.registration.showNotification(data.title || "", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = (event.notification.data && event.notification.data.url) || "/";
  // Only this app's own pages: a URL elsewhere opens the app's home page.
  let url = new URL(wanted, self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const ours = windows.filter((client) => new URL(client.url).origin === self.location.origin);
    const open = ours.find((client) => client.url === url.href) || ours[0];
    if (open && "focus" in open) return open.focus();
    return self.clients.openWindow(url.href);
  })());
});
