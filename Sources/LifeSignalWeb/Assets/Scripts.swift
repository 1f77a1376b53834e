extension WebAssets {
    /// The one script of the pages, a module: each part only adds to a page that works
    /// without it. The countdown is recomputed from the clock on every tick and whenever the
    /// page becomes visible again, so it is right after a phone slept; times are shown in the
    /// reader's own zone; the SOS form gets the location when the browser grants it.
    static let appScript = """
        const spans = (seconds) => {
          const minutes = Math.ceil(Math.abs(seconds) / 60);
          if (minutes < 60) return `${minutes} min`;
          const hours = Math.floor(minutes / 60), rest = minutes % 60;
          if (hours < 48) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
          const days = Math.floor(hours / 24), h = hours % 24;
          return h === 0 ? `${days} days` : `${days} days ${h} h`;
        };

        function tick() {
          const countdown = document.getElementById('countdown');
          if (!countdown) return;
          const deadline = Date.parse(countdown.dataset.deadline);
          if (Number.isNaN(deadline)) return;
          const left = (deadline - Date.now()) / 1000;
          countdown.textContent = left >= 0 ? `${spans(left)} left` : `Overdue by ${spans(left)}`;
        }

        function localTimes() {
          const format = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
          for (const element of document.querySelectorAll('time[data-local]')) {
            const at = Date.parse(element.getAttribute('datetime'));
            if (!Number.isNaN(at)) element.textContent = format.format(at);
          }
        }

        function locateForSOS() {
          const form = document.getElementById('sos-form');
          const status = document.getElementById('location-status');
          if (!form || !('geolocation' in navigator)) return;
          status.textContent = 'Finding your location…';
          navigator.geolocation.getCurrentPosition((position) => {
            form.latitude.value = String(position.coords.latitude);
            form.longitude.value = String(position.coords.longitude);
            form.accuracy.value = String(Math.round(position.coords.accuracy));
            form.located_at.value = String(position.timestamp);
            status.textContent = `Your location will be sent (within ${Math.round(position.coords.accuracy)} m).`;
          }, () => {
            status.textContent = 'Your location is not available; the SOS will be sent without it.';
          }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
        }

        async function offerPush() {
          const section = document.getElementById('push');
          const button = document.getElementById('push-enable');
          const status = document.getElementById('push-status');
          if (!section || !button) return;
          if (!('serviceWorker' in navigator) || !('PushManager' in window)) {
            status.textContent = 'This browser cannot show alerts from LifeSignal.';
            return;
          }
          const registration = await navigator.serviceWorker.ready;
          const existing = await registration.pushManager.getSubscription();
          if (existing) status.textContent = 'Alerts are on for this phone.';
          button.hidden = false;
          button.addEventListener('click', async () => {
            try {
              const subscription = existing || await registration.pushManager.subscribe({
                userVisibleOnly: true, applicationServerKey: section.dataset.key,
              });
              const answer = await fetch('/push/subscriptions', {
                method: 'POST', credentials: 'same-origin',
                headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': section.dataset.csrf },
                body: JSON.stringify(subscription.toJSON()),
              });
              const reply = await answer.json().catch(() => ({}));
              status.textContent = reply.message || (answer.ok ? 'Alerts are on for this phone.' : 'That did not work.');
            } catch (error) {
              status.textContent = 'Alerts could not be turned on: ' + (error && error.message ? error.message : 'permission was not given') + '.';
            }
          });
        }

        // Check-ins pressed while offline: kept in IndexedDB with the page's idempotency key until
        // the server has them, and until then the page says plainly that the person is NOT
        // checked in. The server counts one key once, however often it arrives.
        const QUEUE = 'check-ins';
        function openQueue() {
          return new Promise((resolve, reject) => {
            const request = indexedDB.open('lifesignal', 1);
            request.onupgradeneeded = () => request.result.createObjectStore(QUEUE, { keyPath: 'key' });
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        }
        async function inQueue(mode, work) {
          const db = await openQueue();
          return new Promise((resolve, reject) => {
            const transaction = db.transaction(QUEUE, mode);
            const result = work(transaction.objectStore(QUEUE));
            transaction.oncomplete = () => resolve(result && 'result' in result ? result.result : undefined);
            transaction.onerror = () => reject(transaction.error);
          });
        }
        const keep = (item) => inQueue('readwrite', (store) => store.put(item));
        const forget = (key) => inQueue('readwrite', (store) => store.delete(key));
        const kept = () => inQueue('readonly', (store) => store.getAll());

        function sayOffline(text) {
          const note = document.getElementById('offline-note');
          if (!note) return;
          note.textContent = text;
          note.hidden = !text;
        }

        // true: the server has it; false: refused for good (signed out); throws: not reached.
        async function send(item) {
          const answer = await fetch('/check-in', {
            method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' },
            body: new URLSearchParams({ _csrf: item.csrf, key: item.key }),
          });
          if (answer.status >= 500) throw new Error('server ' + answer.status);
          return answer.ok;
        }

        async function flush() {
          let items = [];
          try { items = await kept(); } catch (error) { return; }
          for (const item of items) {
            try {
              const sent = await send(item);
              await forget(item.key);
              window.location.assign(sent ? '/?said=checked-in' : '/');
              return;
            } catch (error) {
              sayOffline('You are offline. You are NOT checked in yet: your check-in will be sent when your phone is back online.');
              return;
            }
          }
        }

        function keepCheckInsOffline() {
          const form = document.getElementById('check-in-form');
          // A check-in that needs a PIN is never kept on the phone: the PIN would be kept too.
          if (!form || form.pin || !('indexedDB' in window)) return;
          form.addEventListener('submit', async (event) => {
            event.preventDefault();
            const item = { key: form.key.value, csrf: form._csrf.value, pressedAt: Date.now() };
            try { await keep(item); } catch (error) { form.submit(); return; }
            await flush();
          });
          window.addEventListener('online', flush);
          flush();
        }

        localTimes();
        tick();
        locateForSOS();
        offerPush();
        keepCheckInsOffline();
        setInterval(tick, 15000);
        document.addEventListener('visibilitychange', () => { if (!document.hidden) tick(); });
        if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
        """

    /// Keeps the shell (style, script, icon) for when the network is gone; pages themselves
    /// are never cached, since they show a person's live state.
    static let serviceWorker = """
        const SHELL = 'lifesignal-shell-v1';
        const FILES = ['/assets/app.css', '/assets/app.js', '/assets/icon.svg', '/manifest.webmanifest'];
        self.addEventListener('install', (event) => {
          event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
        });
        self.addEventListener('activate', (event) => {
          event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
            .then(() => self.clients.claim()));
        });
        self.addEventListener('push', (event) => {
          let message = {};
          try { message = event.data ? event.data.json() : {}; } catch (error) { message = { title: event.data ? event.data.text() : '' }; }
          const urgent = message.data && message.data.type && /alert|sos|missed|expired/i.test(message.data.type);
          event.waitUntil(self.registration.showNotification(message.title || 'LifeSignal', {
            body: message.body || '', data: { link: message.link || '/' }, tag: message.data && message.data.contactId,
            requireInteraction: Boolean(urgent), renotify: Boolean(urgent && message.data.contactId),
          }));
        });
        self.addEventListener('notificationclick', (event) => {
          event.notification.close();
          const link = new URL(event.notification.data && event.notification.data.link || '/', self.location.origin);
          if (link.origin !== self.location.origin && link.protocol !== 'https:') return;
          event.waitUntil(self.clients.openWindow(link.href));
        });
        self.addEventListener('fetch', (event) => {
          const url = new URL(event.request.url);
          if (event.request.method !== 'GET' || url.origin !== self.location.origin || !FILES.includes(url.pathname)) return;
          event.respondWith(fetch(event.request).catch(() => caches.match(event.request)));
        });
        """

    static let manifest = """
        {"name":"LifeSignal","short_name":"LifeSignal","start_url":"/","scope":"/","display":"standalone",\
        "background_color":"#ffffff","theme_color":"#0a5c2b","description":"Check in, and the people you choose hear when you don't.",\
        "icons":[{"src":"/assets/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any maskable"}]}
        """

    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#0a5c2b"/>\
        <path d="M96 272h88l40-96 64 192 40-96h88" fill="none" stroke="#fff" stroke-width="36" stroke-linecap="round" stroke-linejoin="round"/></svg>
        """
}
