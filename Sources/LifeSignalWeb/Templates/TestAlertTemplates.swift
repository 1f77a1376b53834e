extension WebTemplates {
    /// The person's test alert: send one, and what the last one found.
    static let testAlert = """
        <h1>Test alert</h1>
        <p>Send "This is a test" to everyone who looks out for you, on every way each of them chose to hear of alerts.
        Each of them confirms with the link in the message, or by pressing 1 on a call.</p>
        <form method="post" action="/test-alert"><input type="hidden" name="_csrf" value="{{csrf}}">
        <button class="primary">Send a test alert</button></form>
        {{#sent}}
        <section aria-labelledby="result-heading">
        <h2 id="result-heading">Your last test, sent {{sent}}</h2>
        <ul class="list">
        {{#responders}}
        <li><p><strong>{{name}}</strong>: {{confirmed}}</p>
        {{#warning}}<p class="error">{{warning}}</p>{{/warning}}
        <p class="small">{{channels}}</p></li>
        {{/responders}}
        </ul>
        <p><a href="/test-alert">Refresh</a></p>
        </section>
        {{/sent}}
        """

    /// A responder's page from a test alert's link.
    static let testLink = """
        <h1>This is a test</h1>
        <p>{{name}} is testing LifeSignal: nothing is wrong.</p>
        {{^confirmed}}<form method="post"><button class="primary huge">I got it</button></form>{{/confirmed}}
        {{#confirmed}}<p class="notice" role="status">Thank you. {{name}} can see that you can be reached.</p>{{/confirmed}}
        """
}

struct TestAlertView {
    struct Responder {
        var name: String
        var confirmed: String
        var warning: String?
        var channels: String
    }

    var csrf: String
    var sent: String?
    var responders: [Responder]
}

struct TestLinkView {
    var name: String
    var confirmed: Bool
}
