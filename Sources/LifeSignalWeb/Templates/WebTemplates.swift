import Mustache

/// The web app's Mustache templates, parsed once. `{{name}}` escapes for HTML, so text from
/// data can never become markup; the only unescaped slot (`{{{content}}}`) takes a page
/// this library rendered itself.
enum WebTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let templates: [String: String] = [
            "layout": layout,
            "sign-in": signIn, "sign-in-code": signInCode,
            "home": home, "sos": sos, "settings": settings,
            "people": people, "qr": qr, "link": link,
            "message": message, "check-in-link": checkInLink, "test-alert": testAlert, "test-link": testLink,
        ]
        for (name, text) in templates {
            do { try library.register(text, named: name) } catch {
                // A template is program text: a broken one stops the program at start, in every test.
                fatalError("The web template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// A page: `template` rendered with `view`, inside the layout.
    static func page(_ template: String, _ view: Any, title: String, chrome: Chrome) -> String {
        let content = library.render(view, withTemplate: template) ?? ""
        let layout = Layout(
            title: title, content: content, signedIn: chrome.signedIn, csrf: chrome.csrf, homeCurrent: chrome.current == "home",
            peopleCurrent: chrome.current == "people", settingsCurrent: chrome.current == "settings")
        return library.render(layout, withTemplate: "layout") ?? ""
    }

    /// What the layout shows around a page: the navigation and sign-out for a signed-in person.
    struct Chrome: Sendable {
        var signedIn: Bool
        var csrf: String?
        /// Which navigation entry is the current page (`aria-current`).
        var current: String?

        static let signedOut = Chrome(signedIn: false, csrf: nil, current: nil)

        static func signedIn(csrf: String, current: String?) -> Chrome { Chrome(signedIn: true, csrf: csrf, current: current) }
    }

    /// Mustache reads stored properties only (through `Mirror`), so views hold plain values.
    struct Layout {
        var title: String
        var content: String
        var signedIn: Bool
        var csrf: String?
        var homeCurrent: Bool
        var peopleCurrent: Bool
        var settingsCurrent: Bool
    }

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <meta name="color-scheme" content="light dark">
        <meta name="theme-color" content="#0a5c2b">
        <title>{{title}} · LifeSignal</title>
        <link rel="stylesheet" href="/assets/app.css">
        <link rel="manifest" href="/manifest.webmanifest">
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
        <script type="module" src="/assets/app.js"></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="bar">
        <a class="brand" href="/">LifeSignal</a>
        {{#signedIn}}
        <nav aria-label="Main">
        <ul>
        <li><a href="/"{{#homeCurrent}} aria-current="page"{{/homeCurrent}}>Home</a></li>
        <li><a href="/people"{{#peopleCurrent}} aria-current="page"{{/peopleCurrent}}>People</a></li>
        <li><a href="/settings"{{#settingsCurrent}} aria-current="page"{{/settingsCurrent}}>Settings</a></li>
        </ul>
        </nav>
        {{/signedIn}}
        </header>
        <main id="main">
        {{{content}}}
        </main>
        {{#signedIn}}
        <footer>
        <form method="post" action="/sign-out"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="link">Sign out</button></form>
        </footer>
        {{/signedIn}}
        </body>
        </html>
        """

    /// The page a reminder's link opens: one button, or word that it is done.
    static let checkInLink = """
        <h1>{{greeting}}</h1>
        <p class="{{#due}}big-status{{/due}}{{^due}}notice{{/due}}" role="status">{{text}}</p>
        {{#due}}
        <form method="post">
        {{#needsPIN}}<label for="pin">Your check-in PIN</label>
        <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required>{{/needsPIN}}
        <button class="primary huge">I'm OK — check in</button>
        </form>
        {{/due}}
        """

    /// A page that only says something: an error, a link that no longer works.
    static let message = """
        <h1>{{heading}}</h1>
        <p>{{text}}</p>
        {{#back}}<p><a class="button" href="{{back}}">{{backLabel}}</a></p>{{/back}}
        """
}

/// The view of ``WebTemplates/checkInLink``.
struct CheckInLinkView {
    var greeting: String
    var due: Bool
    var text: String
    var needsPIN = false
}

/// The view of ``WebTemplates/message``.
struct MessageView {
    var heading: String
    var text: String
    var back: String?
    var backLabel = "Go back"
}
