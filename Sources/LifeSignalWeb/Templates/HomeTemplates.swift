extension WebTemplates {
    /// The person's home: one large button, the time left, and the SOS one deliberate step away.
    static let home = """
        {{#said}}<p class="notice" role="status">{{said}}</p>{{/said}}
        {{#sos}}
        <section class="alarm" aria-labelledby="sos-heading">
        <h2 id="sos-heading">Your SOS is active</h2>
        <p>Sent {{sos}}. Your responders have been told.</p>
        <form method="post" action="/sos/cancel"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button class="safe">I'm safe — cancel the SOS</button></form>
        </section>
        {{/sos}}
        <h1>{{greeting}}</h1>
        {{#smsStopped}}<p class="error">{{smsStopped}}</p>{{/smsStopped}}
        <section class="card {{band}}" aria-labelledby="status-heading">
        <h2 id="status-heading" class="visually-hidden">Your check-in</h2>
        {{#paused}}<p class="big-status">Check-ins are paused until <time datetime="{{pausedISO}}" data-local>{{paused}}</time>.</p>{{/paused}}
        {{^paused}}
        {{#deadline}}<p class="big-status" id="countdown" data-deadline="{{deadlineISO}}">{{remaining}}</p>
        <p>Check in before <time datetime="{{deadlineISO}}" data-local>{{deadline}}</time>.</p>{{/deadline}}
        {{^deadline}}<p class="big-status">Check in to start your clock.</p>{{/deadline}}
        {{/paused}}
        <form method="post" action="/check-in" id="check-in-form">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="key" value="{{checkInKey}}">
        {{#needsPIN}}<label for="pin">Your check-in PIN</label>
        <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required>{{/needsPIN}}
        <button class="primary huge" id="check-in">I'm OK — check in</button>
        </form>
        <p class="error" id="offline-note" role="alert" hidden></p>
        </section>
        <section aria-labelledby="details-heading">
        <h2 id="details-heading">Your schedule</h2>
        <dl class="facts">
        <dt>Last check-in</dt><dd>{{#last}}<time datetime="{{lastISO}}" data-local>{{last}}</time> ({{lastAgo}}){{/last}}{{^last}}Not yet{{/last}}</dd>
        <dt>Check in every</dt><dd>{{interval}}</dd>
        <dt>Reminder</dt><dd>{{reminder}}</dd>
        <dt>Responders are told</dt><dd>{{grace}}</dd>
        </dl>
        <p><a href="/settings">Change your schedule</a></p>
        </section>
        <section aria-labelledby="pause-heading">
        <h2 id="pause-heading">Going away?</h2>
        {{#paused}}
        <form method="post" action="/resume"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button>Resume check-ins now</button></form>
        {{/paused}}
        {{^paused}}
        <form method="post" action="/pause" class="row">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label for="pause-hours">Pause for</label>
        <select id="pause-hours" name="hours">
        <option value="2">2 hours</option><option value="8">8 hours</option><option value="24" selected>1 day</option>
        <option value="72">3 days</option><option value="168">1 week</option>
        </select>
        <button>Pause</button>
        </form>
        <p class="small">Your responders see until when.</p>
        {{/paused}}
        </section>
        {{^sos}}
        <section aria-labelledby="help-heading">
        <h2 id="help-heading">Need help now?</h2>
        <a class="button danger" href="/sos">SOS — alert my responders</a>
        <p class="small">You will be asked to confirm.</p>
        </section>
        {{/sos}}
        """

    /// The second, deliberate step of an SOS; the location is added when the browser grants it.
    static let sos = """
        <h1>Send an SOS?</h1>
        <p>Everyone who looks out for you will be told at once{{#responders}}: {{responders}}{{/responders}}.</p>
        {{^responders}}<p class="error" role="alert">You have no responders yet, so nobody would be told. <a href="/people">Add someone</a>.</p>{{/responders}}
        <form method="post" action="/sos" id="sos-form" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="latitude" id="latitude">
        <input type="hidden" name="longitude" id="longitude">
        <input type="hidden" name="accuracy" id="accuracy">
        <input type="hidden" name="located_at" id="located-at">
        <p id="location-status" role="status" class="small">Your location is sent if your browser allows it.</p>
        <button class="danger huge" name="confirm" value="yes">Yes, send the SOS</button>
        </form>
        <p><a class="button" href="/">No, go back</a></p>
        """

    static let settings = """
        {{#said}}<p class="notice" role="status">{{said}}</p>{{/said}}
        <h1>Settings</h1>
        <form method="post" action="/settings" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <fieldset><legend>Your name</legend>
        <label for="first-name">First name</label><input id="first-name" name="first_name" autocomplete="given-name" value="{{firstName}}" maxlength="100">
        <label for="last-name">Last name</label><input id="last-name" name="last_name" autocomplete="family-name" value="{{lastName}}" maxlength="100">
        </fieldset>
        <fieldset><legend>Your schedule</legend>
        <label for="interval">Check in every</label>
        <select id="interval" name="interval_hours">{{#intervals}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/intervals}}</select>
        <label for="reminder">Remind me</label>
        <select id="reminder" name="reminder">{{#reminders}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/reminders}}</select>
        <label for="grace">Tell my responders</label>
        <select id="grace" name="grace_minutes">{{#graces}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/graces}}</select>
        </fieldset>
        <button class="primary">Save</button>
        </form>
        <section aria-labelledby="reach-heading">
        <h2 id="reach-heading">How alerts reach you</h2>
        <form method="post" action="/settings/alerts" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label for="calls">Phone calls about alerts</label>
        <select id="calls" name="voice">{{#calls}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/calls}}</select>
        <label for="order">When someone you look out for needs help</label>
        <select id="order" name="order">{{#orders}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/orders}}</select>
        <button>Save how alerts reach you</button>
        </form>
        </section>
        <section aria-labelledby="pin-heading">
        <h2 id="pin-heading">Check-in PIN</h2>
        <p>{{pinStatus}}</p>
        <p>With a PIN, every check-in asks for it: here, the link in a reminder, a text ("OK 1234") and a call.
        A <strong>duress PIN</strong> checks you in the same way, so nobody beside you can tell, and quietly tells all your responders you may be in danger.</p>
        <form method="post" action="/settings/pins" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label for="new-pin">PIN (4 to 8 digits)</label>
        <input id="new-pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required>
        <label for="duress-pin">Duress PIN (optional, different from the PIN)</label>
        <input id="duress-pin" name="duress_pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,8}" minlength="4" maxlength="8">
        <button>Save the PIN</button>
        </form>
        {{#hasPIN}}<form method="post" action="/settings/pins/remove"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button>Stop asking for a PIN</button></form>{{/hasPIN}}
        </section>
        {{#pushKey}}
        <section aria-labelledby="push-heading" id="push" data-key="{{pushKey}}" data-csrf="{{csrf}}">
        <h2 id="push-heading">Alerts on this phone</h2>
        <p id="push-status" role="status">Your browser can show an alert on this phone when someone you look out for needs you.</p>
        <button type="button" id="push-enable" hidden>Turn on alerts on this phone</button>
        </section>
        {{/pushKey}}
        """
}

/// The view of ``WebTemplates/home``.
struct HomeView {
    var csrf: String
    var greeting: String
    var said: String?
    var band: String
    var deadline: String?
    var deadlineISO: String?
    var remaining: String?
    var paused: String?
    var pausedISO: String?
    var last: String?
    var lastISO: String?
    var lastAgo: String?
    var interval: String
    var reminder: String
    var grace: String
    var sos: String?
    /// A fresh idempotency key per page: a check-in sent twice (a double tap, or a check-in kept
    /// while offline and sent again when the connection returns) counts once.
    var checkInKey: String
    /// Said when texts to the person's own number are stopped.
    var smsStopped: String?
    /// The person set a check-in PIN: the form asks for it (and is then never kept offline).
    var needsPIN: Bool
}

struct SOSView {
    var csrf: String
    var responders: String?
}

/// An `<option>` of a settings choice.
struct Choice {
    var value: String
    var label: String
    var selected: Bool
}

struct SettingsView {
    var csrf: String
    var said: String?
    var firstName: String
    var lastName: String
    var intervals: [Choice]
    var reminders: [Choice]
    var graces: [Choice]
    /// The VAPID key the page's script subscribes with, when this server sends Web Push.
    var pushKey: String?
    var hasPIN: Bool
    var pinStatus: String
    var calls: [Choice]
    var orders: [Choice]
}
