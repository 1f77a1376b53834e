import Clocks
import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures
import LifeSignalFunctions
import LifeSignalLocalAdapters

extension DemoStory {
    nonisolated static let bobPhone = "+15550002222"
    nonisolated static let bobCode = "135790"

    /// A store for one person's screen, with that person's clients and the demo's clock.
    func store<R: Reducer>(_ adapters: LocalAdapters, _ state: R.State, _ reducer: @escaping () -> R) throws -> Store<R.State, R.Action>
    where R.State: Equatable {
        let clients = try AdapterFactory(local: adapters).clients(ProviderSelection(default: .local))
        let clock = self.clock
        return Store(initialState: state, reducer: reducer) {
            clients.install(into: &$0)
            $0.date = DateGenerator { clock.now }
            // Screens' timers wait on a clock that never moves; the demo moves time by hand.
            $0.continuousClock = TestClock()
        }
    }

    /// Onboarding through its screen: name, note, interval and reminder, then saved.
    func onboard(_ adapters: LocalAdapters, first: String, last: String, note: String) async throws {
        let onboarding = try store(adapters, OnboardingFeature.State()) { OnboardingFeature() }
        onboarding.send(.firstNameChanged(first))
        onboarding.send(.lastNameChanged(last))
        onboarding.send(.nextTapped)
        onboarding.send(.emergencyNoteChanged(note))
        while !onboarding.state.isLastStep, onboarding.state.errorMessage == nil { onboarding.send(.nextTapped) }
        await onboarding.send(.nextTapped).finish()
        if let error = onboarding.state.errorMessage { throw DomainError.internal("onboarding: \(error)") }
    }

    /// Bob signs in, and scans the QR code Alice's screen shows: she becomes his dependent, he
    /// her responder (showing the code is her consent). Then Alice asks to look out for Bob too,
    /// which waits for his consent, and he accepts.
    func link(alice: LocalAdapters) async throws -> LocalAdapters {
        let bob = LocalAdapters(backend: backend)
        let phone = try PhoneNumber(Self.bobPhone)
        try await bob.authClient.sendCode(phone)
        _ = try await bob.authClient.verifyCode(phone, try OneTimeCode(Self.bobCode))
        try await onboard(bob, first: "Bob", last: "Okafor", note: "")
        say("[\(time())] Bob, her neighbour, signs in on his phone too.")
        // The screen waits on the demo's still clock for the code to expire, so it is left
        // running and closed by hand.
        let qr = try store(alice, MyQRCodeFeature.State()) { MyQRCodeFeature() }
        qr.send(.task)
        try await waitUntil { qr.state.code != nil || qr.state.errorMessage != nil }
        guard let code = qr.state.code?.id else { throw DomainError.internal("QR code: \(qr.state.errorMessage ?? "none")") }
        say("           Alice opens \"My QR code\": a fresh code, valid until \(time(qr.state.code?.expiresAt)) and for one person.")
        let contacts = try store(bob, ContactsFeature.State()) { ContactsFeature() }
        contacts.send(.addByQRCodeTapped)
        contacts.send(.qrCodeTextChanged(code.uuidString))
        await contacts.send(.lookUpQRCodeTapped).finish()
        let owner = contacts.state.qrCode?.match?.owner.name ?? "?"
        say("           Bob scans it and sees \"\(owner)\".")
        contacts.send(.qrCodeRolesChanged(.dependent))
        await contacts.send(.addByQRCodeConfirmed).finish()
        if let error = contacts.state.errorMessage { throw DomainError.internal("linking: \(error)") }
        let added = contacts.state.sortedContacts.first
        let responders = try store(alice, RespondersFeature.State()) { RespondersFeature() }
        await responders.send(.task).finish()
        say(
            "           He adds her as his \(added?.roles.names.joined(separator: " and ") ?? "?"); her Responders screen now lists \(responders.state.ordered.map(\.name).joined(separator: ", "))."
        )
        contacts.send(.qrCodeTextChanged(code.uuidString))
        await contacts.send(.lookUpQRCodeTapped).finish()
        say("           Scanned again, the code finds nobody: \(contacts.state.errorMessage ?? "it still links (it should not)").")
        contacts.send(.errorDismissed)
        contacts.send(.addByQRCodeCancelled)
        qr.send(.onDisappear)
        try await lookOutForEachOther(alice: alice, bob: bob, bobContacts: contacts)
        return bob
    }

    /// Alice asks to become Bob's responder: that opens his check-ins and alerts to her, so it
    /// waits on his Contacts screen until he accepts.
    func lookOutForEachOther(alice: LocalAdapters, bob: LocalAdapters, bobContacts: Store<ContactsFeature.State, ContactsFeature.Action>) async throws {
        let aliceContacts = try store(alice, ContactsFeature.State()) { ContactsFeature() }
        await aliceContacts.send(.task).finish()
        guard let bobID = aliceContacts.state.contacts.first?.id else { throw DomainError.internal("Alice has no contact") }
        aliceContacts.send(.rolesTapped(bobID, .both))
        await aliceContacts.send(.changeConfirmed).finish()
        say("[\(time())] Alice offers to look out for Bob too. Her screen: \"\(aliceContacts.state.notice ?? aliceContacts.state.errorMessage ?? "?")\".")
        await bobContacts.send(.task).finish()
        guard let request = bobContacts.state.receivedRoleRequests.first else { throw DomainError.internal("Bob received no role request") }
        say("           Bob's Contacts screen: \"\(request.requesterName) asks to become your responder\"; he accepts.")
        await bobContacts.send(.acceptRoleRequestTapped(request.id)).finish()
        if let error = bobContacts.state.errorMessage { throw DomainError.internal("accepting: \(error)") }
        let responders = try store(bob, RespondersFeature.State()) { RespondersFeature() }
        await responders.send(.task).finish()
        say("           His Responders screen now lists \(responders.state.ordered.map(\.name).joined(separator: ", ")).")
    }

    /// After the deadline: the sweep tells Bob live, Bob pings, Alice answers and checks in;
    /// then SOS raised, answered and cancelled — each on the screen a person would use.
    func escalation(alice: LocalAdapters, bob: LocalAdapters) async throws {
        // Bob's notification centre is open: it follows his notifications live.
        let centre = try store(bob, NotificationCentreFeature.State()) { NotificationCentreFeature() }
        centre.send(.task)
        try await waitUntil { centre.state.isLoading == false }
        let bobID = try await reachBobEverywhere()
        let report = try await backend.sweep.run(caller: .service)
        say("\n[\(time())] The server's sweep finds \(report.escalations) missed deadline and tells the responders.")
        var shown = try await showDeliveries(to: bobID, name: "Bob", after: [])
        try await waitUntil { centre.state.notifications.contains { $0.type == .nonResponsiveDependent } }
        if let note = centre.state.notifications.first(where: { $0.type == .nonResponsiveDependent }) {
            say("           Bob's phone, at once: \"\(note.title): \(note.body)\" (\(centre.state.badge) unread)")
        }
        let dependents = try store(bob, DependentsFeature.State()) { DependentsFeature() }
        await dependents.send(.task).finish()
        let group = DependentGrouping.groups(dependents.state.contacts, at: clock.now, sort: .timeLeft).first?.0
        say("           On his Dependents screen Alice is under \"\(group?.title ?? "?")\"; badge \(dependents.state.badge).")
        guard let aliceID = dependents.state.contacts.first?.id else { throw DomainError.internal("Bob has no dependent") }

        let bobPings = try store(bob, PingsFeature.State()) { PingsFeature() }
        await bobPings.send(.task).finish()
        await bobPings.send(.pingTapped(aliceID)).finish()
        say("[\(time())] Bob pings her: \"Are you OK?\"")
        let alicePings = try store(alice, PingsFeature.State()) { PingsFeature() }
        await alicePings.send(.task).finish()
        if let ping = alicePings.state.received.first {
            say("           Alice's Pings screen shows the ping from \(ping.name) (sent \(time(ping.incomingPingAt))); she answers it.")
            await alicePings.send(.respondTapped(ping.id)).finish()
        }
        clock.advance(by: 120)
        let checkIn = try store(alice, CheckInFeature.State()) { CheckInFeature() }
        await checkIn.send(.checkInTapped).finish()
        await dependents.send(.task).finish()
        let status = dependents.state.contacts.first
        say(
            "[\(time())] She checks in; Bob's screen shows her \(status?.isNonResponsive == true ? "still non-responsive" : "safe again"), no ping pending: \(status?.outgoingPingAt == nil)."
        )
        shown = try await showDeliveries(to: bobID, name: "Bob", after: shown)

        clock.advance(by: 3600)
        let sos = try store(alice, SOSFeature.State()) { SOSFeature() }
        sos.send(.activateTapped)
        await sos.send(.activationConfirmed).finish()
        say("\n[\(time())] Alice slips on the stairs and holds the SOS button; she confirms: \(sos.state.notice ?? sos.state.errorMessage ?? "?").")
        await dependents.send(.task).finish()
        if let alert = dependents.state.contacts.first(where: { $0.activeAlertID != nil }), let alertID = alert.activeAlertID {
            say(
                "           Bob's Dependents screen puts her first, under \"\(DependentGrouping.groups(dependents.state.contacts, at: clock.now, sort: .timeLeft).first?.0.title ?? "?")\"."
            )
            clock.advance(by: 60)
            await dependents.send(.respondToAlertTapped(alertID)).finish()
        }
        await sos.send(.task).finish()
        shown = try await showDeliveries(to: bobID, name: "Bob", after: shown)
        say("[\(time())] Bob answers: he is on his way. Alice's SOS screen shows \(sos.state.responders.joined(separator: ", ")) responding.")
        clock.advance(by: 600)
        await sos.send(.deactivateTapped).finish()
        await dependents.send(.task).finish()
        let cleared = dependents.state.contacts.allSatisfy { $0.activeAlertID == nil }
        say("[\(time())] Bob has helped her up; Alice cancels: \(sos.state.notice ?? "?").\(cleared ? " Bob's screen clears it." : "")")
        _ = try await showDeliveries(to: bobID, name: "Bob", after: shown)
        centre.send(.onDisappear)
        try await answerByText(alice: alice)
        try await answerACall(alice: alice, bob: bobID)
    }

    /// A day later, away from the app: Alice answers her reminder with a text from her flip
    /// phone, as Twilio would hand it to `POST /hooks/twilio/sms`.
    func answerByText(alice: LocalAdapters) async throws {
        clock.advance(by: 23 * 3600)
        let texts = backend.smsReplies
        say("\n[\(time())] Alice's reminder says \"Reply OK to check in\"; she is out with her old flip phone and texts back \"ok\".")
        let reply = try await texts.answer(from: "+15550001111", body: "ok") ?? "(no reply)"
        let status = try await alice.checkInClient.status()
        say("           The server answers her by text: \"\(reply)\" Her last check-in is now \(time(status.lastCheckIn)).")
    }

    /// Bob asks to be phoned about alerts; Alice misses a deadline; his phone rings and he
    /// presses 1, as Twilio would play the server's TwiML and post his key.
    func answerACall(alice: LocalAdapters, bob: UserID) async throws {
        _ = try await backend.deliveries.updatePreferences(caller: .user(bob), voice: .urgent)
        say("\n[\(time())] Bob asks LifeSignal to phone him about alerts too: a ringing phone wakes him where an app might not.")
        clock.advance(by: 24 * 3600 + 60)
        _ = try await backend.sweep.run(caller: .service)
        guard
            let row = try await backend.database.query(
                "SELECT id FROM deliveries WHERE channel = 'voice' AND user_id = \(SQLValue(bob.rawValue)) ORDER BY created_at DESC LIMIT 1"
            ).first
        else { throw DomainError.internal("no call was placed to Bob") }
        let call = try row.uuid("id")
        guard case .responder(let message) = try await backend.calls.script(for: call) else { throw DomainError.internal("the call had no message") }
        say(
            "[\(time())] Alice has missed her deadline. Bob's phone rings; a voice says: "
                + "\"This is LifeSignal with an urgent message. \(message) Press 1 if you will check on them.\"")
        guard case .done(let words) = try await backend.calls.pressed("1", on: call) else { throw DomainError.internal("pressing 1 did nothing") }
        let aliceID = await alice.authClient.currentSession()?.userID
        let alert = try await backend.alerts.activeAlert(caller: .user(bob), of: aliceID)
        say("           He presses 1: \"\(words)\" Alice's alert now shows \(alert?.responses.map(\.responderName).joined(separator: ", ") ?? "nobody") on it.")
        clock.advance(by: 300)
        _ = try await alice.checkInClient.checkIn()
        say("[\(time())] Alice checks in; Bob hears she is fine.")
    }

    /// Waits (up to 5 s) for a live effect to bring what the story needs next, so the demo
    /// never hangs on something that does not come.
    func waitUntil(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        guard condition() else { throw DomainError.internal("the demo waited 5 s for something that did not happen") }
    }
}
