extension WebTemplates {
    /// Phone first (a code by SMS works on any phone), email and password for those who set one.
    static let signIn = """
        <h1>Sign in</h1>
        <p>LifeSignal checks that you are all right and tells the people you choose when you are not.</p>
        {{#error}}<p class="error" role="alert" id="sign-in-error">{{error}}</p>{{/error}}
        <form method="post" action="/sign-in/code" class="stack">
        <input type="hidden" name="next" value="{{next}}">
        <label for="phone">Your mobile number</label>
        <input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" required value="{{phone}}"\
        {{#error}} aria-describedby="sign-in-error"{{/error}} placeholder="+1 555 000 1234">
        <button class="primary">Text me a code</button>
        <button name="channel" value="call">Call me with the code (a landline)</button>
        </form>
        <details>
        <summary>Sign in with email and password instead</summary>
        <form method="post" action="/sign-in/password" class="stack">
        <input type="hidden" name="next" value="{{next}}">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <button class="primary">Sign in</button>
        </form>
        </details>
        """

    static let signInCode = """
        <h1>Enter your code</h1>
        {{^called}}<p>We sent a 6-digit code by text message to <strong>{{phone}}</strong>. It works for a few minutes.</p>{{/called}}
        {{#called}}<p>We are calling <strong>{{phone}}</strong> to read you a 6-digit code, twice. It works for a few minutes.</p>{{/called}}
        {{#error}}<p class="error" role="alert" id="code-error">{{error}}</p>{{/error}}
        <form method="post" action="/sign-in/verify" class="stack">
        <input type="hidden" name="next" value="{{next}}">
        <input type="hidden" name="phone" value="{{phone}}">
        <label for="code">Code</label>
        <input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code"\
         maxlength="9" required autofocus{{#error}} aria-describedby="code-error"{{/error}}>
        <button class="primary">Sign in</button>
        </form>
        <p><a href="/sign-in">Use another number or send a new code</a></p>
        """
}

/// The view of ``WebTemplates/signIn`` and ``WebTemplates/signInCode``.
struct SignInView {
    var next: String
    var phone: String = ""
    var error: String?
    /// The code is being read out on a call, not texted.
    var called = false
}
