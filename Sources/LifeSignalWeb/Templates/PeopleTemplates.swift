extension WebTemplates {
    /// Responders and dependents, what waits for an answer, and the ways to add someone.
    static let people = """
        {{#said}}<p class="notice" role="status">{{said}}</p>{{/said}}
        <h1>People</h1>
        {{#hasAlerts}}
        <section class="alarm" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Needs you now</h2>
        <ul class="list">
        {{#alerts}}
        <li>
        <p><strong>{{name}}</strong>: {{what}} {{since}}.</p>
        {{#told}}<p class="small">{{told}}</p>{{/told}}
        {{#tried}}<p class="small">{{tried}}</p>{{/tried}}
        <div class="actions">
        {{#phone}}<a class="button call" href="tel:{{phone}}">Call {{name}}</a>{{/phone}}
        {{#map}}<a class="button" href="{{map}}" rel="noreferrer">Where they were</a>{{/map}}
        <form method="post" action="/alerts/{{id}}/on-it"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="onit">I'm on it</button></form>
        <form method="post" action="/alerts/{{id}}/safe"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="safe">They're safe</button></form>
        </div>
        </li>
        {{/alerts}}
        </ul>
        </section>
        {{/hasAlerts}}
        {{#hasRequests}}
        <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Waiting for your answer</h2>
        <ul class="list">
        {{#requests}}
        <li><p>{{text}}</p>
        <div class="actions">
        <form method="post" action="{{accept}}"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="primary">Accept</button></form>
        <form method="post" action="{{decline}}"><input type="hidden" name="_csrf" value="{{csrf}}"><button>Decline</button></form>
        </div></li>
        {{/requests}}
        </ul>
        </section>
        {{/hasRequests}}
        <section aria-labelledby="dependents-heading">
        <h2 id="dependents-heading">People you look out for</h2>
        {{#hasDependents}}<ul class="list">{{#dependents}}
        <li class="person {{state}}"><p><strong>{{name}}</strong> <span class="tag">{{status}}</span></p>
        {{#phone}}<p class="small"><a href="tel:{{phone}}">{{phone}}</a></p>{{/phone}}
        <form method="post" action="/people/{{id}}/remove" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button class="link" aria-label="Stop looking out for {{name}}">Remove</button></form></li>
        {{/dependents}}</ul>{{/hasDependents}}
        {{^hasDependents}}<p>Nobody yet.</p>{{/hasDependents}}
        </section>
        <section aria-labelledby="responders-heading">
        <h2 id="responders-heading">People who look out for you</h2>
        {{#hasResponders}}<ul class="list">{{#responders}}
        <li class="person"><p><strong>{{name}}</strong> <span class="tag">told {{tierText}}</span></p>
        {{#status}}<p class="error">{{status}}</p>{{/status}}
        <form method="post" action="/people/{{id}}/tier" class="row">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label for="tier-{{id}}">Tell {{name}}</label>
        <select id="tier-{{id}}" name="tier">{{#tiers}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/tiers}}</select>
        <button>Save</button>
        </form>
        <form method="post" action="/people/{{id}}/remove" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button class="link" aria-label="Remove {{name}} as your responder">Remove</button></form></li>
        {{/responders}}</ul>
        <p><a href="/test-alert">Send a test alert</a>: check that each of them can be reached, and how.</p>{{/hasResponders}}
        {{^hasResponders}}<p class="error">Nobody would be told if you missed a check-in. Add someone below.</p>{{/hasResponders}}
        </section>
        {{#hasPending}}
        <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">Sent, not answered yet</h2>
        <ul class="list">{{#pending}}<li>{{.}}</li>{{/pending}}</ul>
        </section>
        {{/hasPending}}
        <section aria-labelledby="add-heading">
        <h2 id="add-heading">Add someone</h2>
        <p><a class="button" href="/qr">Show my QR code</a></p>
        <form method="post" action="/people/invite" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <label for="invite-phone">Their mobile number</label>
        <input id="invite-phone" name="phone" type="tel" autocomplete="off" inputmode="tel" required>
        <fieldset><legend>They will</legend>
        <label class="choice"><input type="radio" name="role" value="responder" checked> look out for me</label>
        <label class="choice"><input type="radio" name="role" value="dependent"> be looked out for by me</label>
        <label class="choice"><input type="radio" name="role" value="both"> both</label>
        </fieldset>
        <button class="primary">Send an invitation by text</button>
        </form>
        </section>
        """

    /// "My QR code": drawn on the server as SVG, with the link it holds written out.
    static let qr = """
        {{#said}}<p class="notice" role="status">{{said}}</p>{{/said}}
        <h1>My QR code</h1>
        <p>Let someone scan this with their phone's camera to link with you. It works until {{expires}}, once.</p>
        <p class="qr"><img src="/qr.svg?v={{version}}" width="{{pixels}}" height="{{pixels}}" alt="QR code for linking with you"></p>
        <p class="small">Or send them this link: <a href="{{link}}">{{link}}</a></p>
        <form method="post" action="/qr/new"><input type="hidden" name="_csrf" value="{{csrf}}"><button>Make a new code</button></form>
        """

    /// What a scanned code opens: who it links to and in which roles.
    static let link = """
        <h1>Link with {{name}}?</h1>
        <form method="post" action="/l/{{code}}" class="stack">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <fieldset><legend>{{name}} will</legend>
        <label class="choice"><input type="radio" name="role" value="responder" checked> look out for me</label>
        <label class="choice"><input type="radio" name="role" value="dependent"> be looked out for by me</label>
        <label class="choice"><input type="radio" name="role" value="both"> both</label>
        </fieldset>
        <button class="primary">Link with {{name}}</button>
        </form>
        <p><a href="/">Not now</a></p>
        """
}

struct PeopleView {
    struct Alert {
        var id: String
        var csrf: String
        var name: String
        var what: String
        var since: String
        var phone: String?
        var map: String?
        /// Who has answered so far.
        var told: String?
        /// The alert's timeline: who was tried, how, and what became of it.
        var tried: String?
    }

    struct Request {
        var csrf: String
        var text: String
        var accept: String
        var decline: String
    }

    struct Person {
        var id: String
        var csrf: String
        var name: String
        var phone: String?
        var status: String
        var state: String
        /// "first", "second", …: when they are told after a missed check-in.
        var tierText: String
        var tiers: [Choice]
    }

    var csrf: String
    var said: String?
    var alerts: [Alert]
    var requests: [Request]
    var dependents: [Person]
    var responders: [Person]
    var pending: [String]
    var hasAlerts: Bool
    var hasRequests: Bool
    var hasDependents: Bool
    var hasResponders: Bool
    var hasPending: Bool
}

struct QRView {
    var csrf: String
    var said: String?
    var link: String
    var expires: String
    var pixels: Int
    var version: String
}

struct LinkView {
    var csrf: String
    var name: String
    var code: String
}
