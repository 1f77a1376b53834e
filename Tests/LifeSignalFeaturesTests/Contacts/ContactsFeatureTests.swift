import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The Contacts screen: loading and sorting, adding by QR code, inviting by phone, answering
/// invitations, role changes and removals behind a confirmation. Client endpoints a test does
/// not set are unimplemented, so every "no request" claim below is checked by the client too.
@MainActor
@Suite(.reportsIssues) struct ContactsFeatureTests {
    nonisolated static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n)) ?? UUID()
    }

    nonisolated static func contact(_ name: String, _ n: Int, roles: ContactRoles) -> ContactSummary {
        ContactSummary(id: UserID(uuid(n)), name: name, phone: "+1555000\(3000 + n)", roles: roles, addedAt: Fixtures.start)
    }

    nonisolated static func invitation(_ n: Int, from name: String, to phone: String, roles: ContactRoles) -> InvitationSummary {
        InvitationSummary(
            id: uuid(n), inviterID: UserID(uuid(100 + n)), inviterName: name, inviteePhone: phone, roles: roles,
            status: .pending, sentAt: Fixtures.start)
    }

    nonisolated static let anna = contact("Anna", 1, roles: .responder)
    nonisolated static let ben = contact("ben", 2, roles: .dependent)
    nonisolated static let carl = contact("Carl", 3, roles: .both)
    nonisolated static let otherAnna = contact("anna", 4, roles: .responder)
    nonisolated static let samContact = contact("Sam Rivera", 9, roles: .both)
    nonisolated static let sam = QRCodeOwner(userID: samContact.id, name: "Sam Rivera")
    nonisolated static let qrCodeID = uuid(30)
    nonisolated static let match = ContactsFeature.QRCodeFlow.Match(qrCodeID: qrCodeID, owner: sam)
    nonisolated static let fromDora = invitation(20, from: "Dora", to: "+15550001111", roles: .responder)
    nonisolated static let toEd = invitation(21, from: "Me", to: "+15550002222", roles: .dependent)
    nonisolated static let chooseRoles = "Choose whether they are your responder, your dependent or both"

    func makeStore(_ state: ContactsFeature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<ContactsFeature.State, ContactsFeature.Action>
    {
        TestStore(initialState: state) {
            ContactsFeature()
        } withDependencies: {
            dependencies(&$0)
        }
    }

    /// A client call that answers only when the test says so, to look at the screen mid-request.
    struct Gate: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func wait() async { for await _ in stream { return } }
        func open() { continuation.yield() }
    }

    // MARK: Loading

    @Test func taskLoadsContactsAndInvitationsSortedByName() async {
        let list = ContactList(contacts: [Self.carl, Self.otherAnna, Self.ben, Self.anna], sentInvitations: [Self.toEd], receivedInvitations: [Self.fromDora])
        let store = makeStore { $0.contactsClient.contacts = { list } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(list))) {
            $0.isLoading = false
            $0.contacts = list.contacts
            $0.sentInvitations = [Self.toEd]
            $0.receivedInvitations = [Self.fromDora]
        }
        // Case is ignored; the two Annas keep a stable order by id.
        #expect(store.state.sortedContacts.map(\.id) == [Self.anna.id, Self.otherAnna.id, Self.ben.id, Self.carl.id])
        await store.finish()
    }

    @Test func aFailedLoadIsExplainedAndKeepsTheList() async {
        let store = makeStore(.init(contacts: [Self.anna])) { $0.contactsClient.contacts = { throw DomainError.unauthenticated } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.failure(.unauthenticated))) {
            $0.isLoading = false
            $0.errorMessage = "Sign in first"
        }
        await store.send(.errorDismissed) { $0.errorMessage = nil }
        await store.finish()
    }

    // MARK: Add by QR code

    @Test func addByQRCodeLooksUpTheOwnerThenAddsWithTheChosenRoles() async {
        let calls = LockIsolated<[String]>([])
        let after = ContactList(contacts: [Self.anna, Self.samContact])
        let store = makeStore(.init(contacts: [Self.anna])) {
            $0.contactsClient.lookUpQRCode = { id in
                calls.withValue { $0.append("lookUp \(id)") }
                return Self.sam
            }
            $0.contactsClient.addByQRCode = { id, roles in
                calls.withValue { $0.append("add \(id) \(roles.names)") }
                return Self.samContact
            }
            $0.contactsClient.contacts = { after }
        }
        let pasted = "  \(Self.qrCodeID.uuidString.lowercased())\n"
        await store.send(.addByQRCodeTapped) { $0.qrCode = .init() }
        // Opening it again keeps what is there.
        await store.send(.addByQRCodeTapped)
        await store.send(.qrCodeTextChanged(pasted)) { $0.qrCode?.codeText = pasted }
        await store.send(.lookUpQRCodeTapped) { $0.qrCode?.isLookingUp = true }
        await store.receive(.qrCodeLookedUp(.success(Self.match))) {
            $0.qrCode?.isLookingUp = false
            $0.qrCode?.match = Self.match
        }
        await store.send(.qrCodeRolesChanged(.dependent)) { $0.qrCode?.roles = .dependent }
        await store.send(.qrCodeRolesChanged(.both)) { $0.qrCode?.roles = .both }
        await store.send(.addByQRCodeConfirmed) { $0.qrCode?.isAdding = true }
        await store.receive(.addedByQRCode(.success(Self.samContact))) {
            $0.qrCode = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(after))) {
            $0.isLoading = false
            $0.contacts = [Self.anna, Self.samContact]
        }
        #expect(calls.value == ["lookUp \(Self.qrCodeID)", "add \(Self.qrCodeID) [\"responder\", \"dependent\"]"])
        await store.finish()
    }

    @Test func qrCodeInputIsCheckedBeforeAnyRequest() async {
        let store = makeStore()
        // Nothing to look up or confirm before the sheet is open.
        await store.send(.lookUpQRCodeTapped)
        await store.send(.addByQRCodeConfirmed)
        await store.send(.qrCodeRolesChanged(.responder))
        // A scan opens the sheet by itself.
        await store.send(.qrCodeTextChanged("")) { $0.qrCode = .init() }
        await store.send(.lookUpQRCodeTapped) {
            $0.errorMessage = "\"\" is not a LifeSignal QR code; scan it again or paste the whole code"
        }
        await store.send(.qrCodeTextChanged("lifesignal://me ")) { $0.qrCode?.codeText = "lifesignal://me " }
        await store.send(.lookUpQRCodeTapped) {
            $0.errorMessage = "\"lifesignal://me\" is not a LifeSignal QR code; scan it again or paste the whole code"
        }
        // Confirming needs a looked-up owner, then a role.
        await store.send(.addByQRCodeConfirmed)
        await store.send(.qrCodeTextChanged(Self.qrCodeID.uuidString)) { $0.qrCode?.codeText = Self.qrCodeID.uuidString }
        await store.send(.addByQRCodeCancelled) { $0.qrCode = nil }

        let matched = makeStore(.init(qrCode: .init(codeText: Self.qrCodeID.uuidString, match: Self.match)))
        await matched.send(.addByQRCodeConfirmed) { $0.errorMessage = Self.chooseRoles }
        await matched.finish()
        await store.finish()
    }

    @Test func qrCodeFailuresAreExplainedAndKeepTheFlow() async {
        let lookUps = LockIsolated(0)
        let store = makeStore(.init(contacts: [Self.anna])) {
            $0.contactsClient.lookUpQRCode = { _ in
                let count = lookUps.withValue {
                    $0 += 1
                    return $0
                }
                guard count > 1 else { throw DomainError.notFound("QR code") }
                return Self.sam
            }
            $0.contactsClient.addByQRCode = { _, _ in throw DomainError.alreadyExists("Contact Sam Rivera") }
        }
        let text = Self.qrCodeID.uuidString
        await store.send(.qrCodeTextChanged(text)) { $0.qrCode = .init(codeText: text) }
        await store.send(.qrCodeRolesChanged(.responder)) { $0.qrCode?.roles = .responder }
        await store.send(.lookUpQRCodeTapped) { $0.qrCode?.isLookingUp = true }
        await store.receive(.qrCodeLookedUp(.failure(.notFound("QR code")))) {
            $0.qrCode?.isLookingUp = false
            $0.errorMessage = "QR code was not found"
        }
        // Trying again clears the old message.
        await store.send(.lookUpQRCodeTapped) {
            $0.qrCode?.isLookingUp = true
            $0.errorMessage = nil
        }
        await store.receive(.qrCodeLookedUp(.success(Self.match))) {
            $0.qrCode?.isLookingUp = false
            $0.qrCode?.match = Self.match
        }
        await store.send(.addByQRCodeConfirmed) { $0.qrCode?.isAdding = true }
        await store.receive(.addedByQRCode(.failure(.alreadyExists("Contact Sam Rivera")))) {
            $0.qrCode?.isAdding = false
            $0.errorMessage = "Contact Sam Rivera already exists"
        }
        #expect(store.state.qrCode == .init(codeText: text, roles: .responder, match: Self.match))
        await store.finish()
    }

    @Test func cancellingTheQRCodeFlowDropsALookupButNotAnAddAlreadySent() async {
        let gate = Gate()
        let store = makeStore(.init(contacts: [Self.anna])) {
            $0.contactsClient.lookUpQRCode = { _ in try await Task.never() }
            $0.contactsClient.addByQRCode = { _, _ in
                await gate.wait()
                return Self.samContact
            }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.anna, Self.samContact]) }
        }
        let text = Self.qrCodeID.uuidString
        await store.send(.qrCodeTextChanged(text)) { $0.qrCode = .init(codeText: text) }
        await store.send(.lookUpQRCodeTapped) { $0.qrCode?.isLookingUp = true }
        await store.send(.lookUpQRCodeTapped)
        // Another code replaces the question; the same text again changes nothing.
        await store.send(.qrCodeTextChanged(text + "0")) {
            $0.qrCode?.codeText = text + "0"
            $0.qrCode?.isLookingUp = false
        }
        await store.send(.qrCodeTextChanged(text)) { $0.qrCode?.codeText = text }
        await store.send(.qrCodeTextChanged(text))
        await store.send(.lookUpQRCodeTapped) { $0.qrCode?.isLookingUp = true }
        await store.send(.addByQRCodeCancelled) { $0.qrCode = nil }
        // A late answer to a lookup nobody waits for is ignored; reopening starts afresh.
        await store.send(.qrCodeLookedUp(.success(Self.match)))
        await store.send(.addByQRCodeTapped) { $0.qrCode = .init() }
        await store.finish()

        // Editing the code after a lookup forgets the owner: even the same code again must be
        // looked up again before it can be confirmed.
        let flow = ContactsFeature.QRCodeFlow(codeText: text, roles: .dependent, match: Self.match)
        let edited = makeStore(.init(contacts: [Self.anna], qrCode: flow))
        await edited.send(.qrCodeTextChanged("other")) {
            $0.qrCode?.codeText = "other"
            $0.qrCode?.match = nil
        }
        await edited.send(.addByQRCodeConfirmed)
        await edited.send(.qrCodeTextChanged(text)) { $0.qrCode?.codeText = text }
        await edited.send(.addByQRCodeConfirmed)
        await edited.send(.qrCodeLookedUp(.success(Self.match)))
        await edited.send(.addByQRCodeCancelled) { $0.qrCode = nil }
        await edited.finish()

        // While the add is in flight the sheet is frozen; cancelling closes it, and the add's
        // answer still reloads the list.
        let inFlight = makeStore(.init(contacts: [Self.anna], qrCode: flow)) {
            $0.contactsClient.addByQRCode = { _, _ in
                await gate.wait()
                return Self.samContact
            }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.anna, Self.samContact]) }
        }
        await inFlight.send(.addByQRCodeConfirmed) { $0.qrCode?.isAdding = true }
        await inFlight.send(.addByQRCodeConfirmed)
        await inFlight.send(.qrCodeTextChanged("other"))
        await inFlight.send(.qrCodeRolesChanged(.responder))
        await inFlight.send(.lookUpQRCodeTapped)
        await inFlight.send(.addByQRCodeCancelled) { $0.qrCode = nil }
        gate.open()
        await inFlight.receive(.addedByQRCode(.success(Self.samContact))) { $0.isLoading = true }
        await inFlight.receive(.loaded(.success(ContactList(contacts: [Self.anna, Self.samContact])))) {
            $0.isLoading = false
            $0.contacts = [Self.anna, Self.samContact]
        }
        await inFlight.finish()
    }

    // MARK: Invite by phone

    @Test func inviteChecksThePhoneAndTheRolesBeforeSending() async {
        let store = makeStore()
        await store.send(.invitePhoneChanged("555-1234")) { $0.invitePhoneText = "555-1234" }
        await store.send(.inviteTapped) { $0.errorMessage = DomainError.invalidPhone("555-1234").message }
        #expect(store.state.errorMessage == "\"555-1234\" is not a phone number in E.164 form (+ and 7 to 15 digits)")
        await store.send(.invitePhoneChanged("+1 (555) 000-2222")) { $0.invitePhoneText = "+1 (555) 000-2222" }
        await store.send(.inviteTapped) { $0.errorMessage = Self.chooseRoles }
        await store.finish()
    }

    @Test func inviteSendsOnceThenClearsTheFormAndReloads() async {
        let calls = LockIsolated<[String]>([])
        let gate = Gate()
        let after = ContactList(contacts: [Self.anna], sentInvitations: [Self.toEd])
        let store = makeStore(.init(contacts: [Self.anna], errorMessage: "Earlier failure")) {
            $0.contactsClient.invite = { phone, roles in
                calls.withValue { $0.append("invite \(phone) \(roles.names)") }
                await gate.wait()
                return Self.toEd
            }
            $0.contactsClient.contacts = { after }
        }
        await store.send(.invitePhoneChanged("+1 (555) 000-2222")) { $0.invitePhoneText = "+1 (555) 000-2222" }
        await store.send(.inviteRolesChanged(.dependent)) { $0.inviteRoles = .dependent }
        await store.send(.inviteTapped) {
            $0.isInviting = true
            $0.errorMessage = nil
        }
        await store.send(.inviteTapped)
        gate.open()
        await store.receive(.invited(.success(Self.toEd))) {
            $0.isInviting = false
            $0.invitePhoneText = ""
            $0.inviteRoles = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(after))) {
            $0.isLoading = false
            $0.sentInvitations = [Self.toEd]
        }
        #expect(calls.value == ["invite +15550002222 [\"dependent\"]"])
        await store.finish()
    }

    @Test func aFailedInviteKeepsWhatWasTyped() async {
        let store = makeStore(.init(invitePhoneText: "+15550002222", inviteRoles: .both)) {
            $0.contactsClient.invite = { _, _ in throw DomainError.rateLimited(retryAfter: 30) }
        }
        await store.send(.inviteTapped) { $0.isInviting = true }
        await store.receive(.invited(.failure(.rateLimited(retryAfter: 30)))) {
            $0.isInviting = false
            $0.errorMessage = "Too many requests; retry in 30 s"
        }
        await store.finish()
    }

    // MARK: Received invitations

    @Test func acceptAndDeclineThenReload() async {
        let calls = LockIsolated<[String]>([])
        let fromEve = Self.invitation(22, from: "Eve", to: "+15550001111", roles: .dependent)
        let list = LockIsolated(ContactList(contacts: [Self.anna], receivedInvitations: [Self.fromDora, fromEve]))
        let store = makeStore(.init(contacts: [Self.anna], receivedInvitations: [Self.fromDora, fromEve])) {
            $0.contactsClient.acceptInvitation = { id in
                calls.withValue { $0.append("accept \(id)") }
                list.setValue(ContactList(contacts: [Self.anna, Self.ben], receivedInvitations: [fromEve]))
                return Self.ben
            }
            $0.contactsClient.declineInvitation = { id in
                calls.withValue { $0.append("decline \(id)") }
                list.setValue(ContactList(contacts: [Self.anna, Self.ben]))
            }
            $0.contactsClient.contacts = { list.value }
        }
        await store.send(.acceptInvitationTapped(Self.fromDora.id)) { $0.answeringInvitationID = Self.fromDora.id }
        await store.receive(.invitationAnswered(.success(Self.fromDora.id))) {
            $0.answeringInvitationID = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.anna, Self.ben], receivedInvitations: [fromEve])))) {
            $0.isLoading = false
            $0.contacts = [Self.anna, Self.ben]
            $0.receivedInvitations = [fromEve]
        }
        await store.send(.declineInvitationTapped(fromEve.id)) { $0.answeringInvitationID = fromEve.id }
        await store.receive(.invitationAnswered(.success(fromEve.id))) {
            $0.answeringInvitationID = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.anna, Self.ben])))) {
            $0.isLoading = false
            $0.receivedInvitations = []
        }
        #expect(calls.value == ["accept \(Self.fromDora.id)", "decline \(fromEve.id)"])
        await store.finish()
    }

    @Test func answeringIsOneAtATimeAndAFailureIsExplained() async {
        let gate = Gate()
        let store = makeStore(.init(receivedInvitations: [Self.fromDora])) {
            $0.contactsClient.declineInvitation = { _ in
                await gate.wait()
                throw DomainError.failedPrecondition("This invitation was already answered")
            }
        }
        await store.send(.declineInvitationTapped(Self.fromDora.id)) { $0.answeringInvitationID = Self.fromDora.id }
        await store.send(.acceptInvitationTapped(Self.fromDora.id))
        await store.send(.declineInvitationTapped(Self.fromDora.id))
        gate.open()
        await store.receive(.invitationAnswered(.failure(.failedPrecondition("This invitation was already answered")))) {
            $0.answeringInvitationID = nil
            $0.errorMessage = "This invitation was already answered"
        }
        await store.finish()
    }

    // MARK: Role changes and removal

    @Test func aRoleChangeWaitsForConfirmation() async {
        let calls = LockIsolated<[String]>([])
        let annaBoth = Self.contact("Anna", 1, roles: .both)
        let store = makeStore(.init(contacts: [Self.anna, Self.ben])) {
            $0.contactsClient.updateRoles = { id, roles in
                calls.withValue { $0.append("updateRoles \(id) \(roles.names)") }
                return RoleChangeOutcome(contact: annaBoth)
            }
            $0.contactsClient.contacts = { ContactList(contacts: [annaBoth, Self.ben]) }
        }
        // The roles she already has, or someone not in the list: nothing to confirm.
        await store.send(.rolesTapped(Self.anna.id, .responder))
        await store.send(.rolesTapped(Self.carl.id, .both))
        await store.send(.changeConfirmed)
        await store.send(.rolesTapped(Self.anna.id, .both)) { $0.pendingChange = .roles(Self.anna.id, .both) }
        #expect(store.state.pendingChangeContact == Self.anna)
        await store.send(.changeCancelled) { $0.pendingChange = nil }
        #expect(calls.value.isEmpty)
        await store.send(.rolesTapped(Self.anna.id, .dependent)) { $0.pendingChange = .roles(Self.anna.id, .dependent) }
        await store.send(.rolesTapped(Self.anna.id, .both)) { $0.pendingChange = .roles(Self.anna.id, .both) }
        await store.send(.changeConfirmed) { $0.isApplyingChange = true }
        await store.receive(.changeApplied(.success(.roles(RoleChangeOutcome(contact: annaBoth))))) {
            $0.isApplyingChange = false
            $0.pendingChange = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [annaBoth, Self.ben])))) {
            $0.isLoading = false
            $0.contacts = [annaBoth, Self.ben]
        }
        #expect(calls.value == ["updateRoles \(Self.anna.id) [\"responder\", \"dependent\"]"])
        await store.finish()
    }

    @Test func aRemovalWaitsForConfirmationAndIsSentOnce() async {
        let calls = LockIsolated<[String]>([])
        let gate = Gate()
        let store = makeStore(.init(contacts: [Self.anna, Self.ben])) {
            $0.contactsClient.remove = { id in
                calls.withValue { $0.append("remove \(id)") }
                await gate.wait()
            }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.anna]) }
        }
        await store.send(.removeTapped(Self.carl.id))
        await store.send(.removeTapped(Self.ben.id)) { $0.pendingChange = .removal(Self.ben.id) }
        await store.send(.changeCancelled) { $0.pendingChange = nil }
        // Asking about one change replaces the question about another.
        await store.send(.rolesTapped(Self.ben.id, .both)) { $0.pendingChange = .roles(Self.ben.id, .both) }
        await store.send(.removeTapped(Self.ben.id)) { $0.pendingChange = .removal(Self.ben.id) }
        #expect(store.state.pendingChangeContact == Self.ben)
        await store.send(.changeConfirmed) { $0.isApplyingChange = true }
        // Once sent, the dialog waits for the answer.
        await store.send(.changeConfirmed)
        await store.send(.changeCancelled)
        await store.send(.removeTapped(Self.anna.id))
        await store.send(.rolesTapped(Self.anna.id, .both))
        gate.open()
        await store.receive(.changeApplied(.success(.removal(Self.ben.id)))) {
            $0.isApplyingChange = false
            $0.pendingChange = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.anna])))) {
            $0.isLoading = false
            $0.contacts = [Self.anna]
        }
        #expect(calls.value == ["remove \(Self.ben.id)"])
        await store.finish()
    }

    @Test func aFailedChangeKeepsTheDialogToRetryOrCancel() async {
        let store = makeStore(.init(contacts: [Self.anna], pendingChange: .roles(Self.anna.id, .dependent))) {
            $0.contactsClient.updateRoles = { _, _ in throw DomainError.forbidden("Not your contact") }
        }
        await store.send(.changeConfirmed) { $0.isApplyingChange = true }
        await store.receive(.changeApplied(.failure(.forbidden("Not your contact")))) {
            $0.isApplyingChange = false
            $0.errorMessage = "Not your contact"
        }
        await store.send(.changeConfirmed) {
            $0.isApplyingChange = true
            $0.errorMessage = nil
        }
        await store.receive(.changeApplied(.failure(.forbidden("Not your contact")))) {
            $0.isApplyingChange = false
            $0.errorMessage = "Not your contact"
        }
        await store.send(.changeCancelled) { $0.pendingChange = nil }

        let removal = makeStore(.init(contacts: [Self.anna], pendingChange: .removal(Self.anna.id))) {
            $0.contactsClient.remove = { _ in throw DomainError.internal("boom") }
        }
        await removal.send(.changeConfirmed) { $0.isApplyingChange = true }
        await removal.receive(.changeApplied(.failure(.internal("boom")))) {
            $0.isApplyingChange = false
            $0.errorMessage = "Internal error: boom"
        }
        await removal.finish()
        await store.finish()
    }
}
