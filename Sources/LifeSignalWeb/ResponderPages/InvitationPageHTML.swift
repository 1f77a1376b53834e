import Foundation
import LifeSignalBackend

/// The page an invitation SMS links to: what LifeSignal is, who invited, and how to accept.
enum InvitationPageHTML {
    static func page(_ page: InvitationPage) -> String {
        let name = PageHTML.escape(page.inviterFirstName)
        let role =
            switch (page.asResponder, page.asDependent) {
            case (true, true): "to look out for each other"
            case (false, true): "so that they can look out for you"
            default: "to be one of the people who look out for them"
            }
        return PageHTML.document(
            title: "\(page.inviterFirstName) invited you to LifeSignal",
            body: """
                <h1>\(name) invited you to LifeSignal</h1>
                <p>\(name) asks you \(PageHTML.escape(role)).</p>
                <h2>What LifeSignal is</h2>
                <p>A person checks in on a schedule. If they miss a check-in or raise an SOS, the people who look out \
                for them are told at once, by the app, a text message or an email, and can say they are on it.</p>
                <h2>How to accept</h2>
                <ol>
                <li>Install the LifeSignal app.</li>
                <li>Sign in with the phone number this message was sent to.</li>
                <li>Open Contacts: the invitation from \(name) is waiting there. Accept or decline it.</li>
                </ol>
                <p class="small">Nothing happens until you accept. If you do not know \(name), ignore this message.</p>
                """)
    }

    static func unavailable() -> String {
        PageHTML.document(
            title: "Invitation not available — LifeSignal",
            body: """
                <h1>This invitation is not available</h1>
                <p>It may have expired, been answered already, or been withdrawn.</p>
                """)
    }
}
