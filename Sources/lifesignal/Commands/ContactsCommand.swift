import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures
import QREncoder

/// `lifesignal contacts …`: the people I look out for and who look out for me, through the
/// Contacts screen's reducer (my QR code through the My QR code screen's; role requests in
/// `ContactsCommand+RoleRequests.swift`).
struct ContactsCommand: AsyncParsableCommand {
    typealias Screen = ScreenDriver<ContactsFeature.State, ContactsFeature.Action>

    /// The Contacts screen with its list loaded.
    @MainActor
    static func screen(_ options: ClientOptions) async throws -> Screen {
        let screen = Screen(ContactsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { ContactsFeature() }
        try await screen.send(.task)
        return screen
    }

    /// Confirms the change the screen is asking about ("Remove Alice?"): running the command is the yes.
    @MainActor
    static func confirm(_ screen: Screen) async throws {
        guard screen.state.pendingChange != nil else { throw DomainError.failedPrecondition("Nothing to change") }
        try await screen.send(.changeConfirmed)
    }

    static let configuration = CommandConfiguration(
        commandName: "contacts", abstract: "List, link, invite, change or remove contacts.",
        subcommands: [List.self, QR.self, Add.self, Invite.self, Accept.self, Decline.self, Roles.self, Tier.self, Requests.self, Remove.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your contacts and invitations.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try await show() }
        }

        @MainActor
        func show() async throws {
            let state = try await ContactsCommand.screen(options).state
            let contacts = state.sortedContacts
            if options.json {
                try CommandOutput.json([
                    "contacts": contacts.map(PeoplePrinter.contactJSON),
                    "invitations": state.receivedInvitations.map(Self.invitationJSON),
                    "role_requests": state.receivedRoleRequests.map(Requests.List.receivedJSON),
                ])
                return
            }
            if contacts.isEmpty { print("No contacts yet. Share your QR code: lifesignal contacts qr") }
            let now = Date()
            for contact in contacts { print(PeoplePrinter.line(contact, now: now)) }
            for invitation in state.receivedInvitations where invitation.status == .pending {
                print(
                    "Invitation from \(invitation.inviterName) as your \(invitation.roles.reciprocal.names.joined(separator: " & ")) · \(PeoplePrinter.id(invitation.id))"
                )
            }
            for invitation in state.sentInvitations where invitation.status == .pending {
                print("Invited \(invitation.inviteePhone) (waiting) · \(PeoplePrinter.id(invitation.id))")
            }
            Requests.List.printLines(state)
        }

        static func invitationJSON(_ invitation: InvitationSummary) -> [String: String] {
            [
                "id": PeoplePrinter.id(invitation.id), "from": invitation.inviterName, "status": invitation.status.rawValue,
                "roles": invitation.roles.names.joined(separator: ","),
            ]
        }
    }

    struct QR: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "qr", abstract: "Your QR code, for someone to link to you now: it links one person, for a few minutes.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Issue a new code; the old one stops working.") var reset = false
        @Option(help: "The web app's address the code links to (default: LIFESIGNAL_PUBLIC_URL, else http://127.0.0.1:54321).")
        var linkBase: String?
        @Flag(help: "Draw the code for a terminal with a dark background.") var dark = false

        func run() async throws {
            try await CommandOutput.run { try await show() }
        }

        /// The code as the My QR code screen shows it; running `--reset` is its "New code".
        /// The screen would renew the code when it expires; the command shows one and leaves.
        @MainActor
        func show() async throws {
            let screen = ScreenDriver<MyQRCodeFeature.State, MyQRCodeFeature.Action>(
                MyQRCodeFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage
            ) { MyQRCodeFeature() }
            try await screen.start(.task, until: { $0.code != nil })
            if reset, let shown = screen.state.code {
                try await screen.start(.newCodeTapped, until: { $0.code.map { $0 != shown } ?? false })
            }
            await screen.store.send(.onDisappear).finish()
            guard let code = screen.state.code else { throw DomainError.internal("No QR code") }
            if options.json {
                try CommandOutput.json(["qr_code_id": PeoplePrinter.id(code.id), "expires_at": ContentValue.iso8601(code.expiresAt)])
            } else {
                // The same link the web app's "My QR code" draws: any phone's camera opens it.
                var base = linkBase ?? (try? LifeSignalEnvironment.values())?["LIFESIGNAL_PUBLIC_URL"] ?? "http://127.0.0.1:54321"
                while base.hasSuffix("/") { base.removeLast() }
                let link = "\(base)/l/\(PeoplePrinter.id(code.id))"
                print(try QREncoder.QRCode(text: link).terminalText(quietZone: 2, inverted: dark))
                print(link)
                print("Code \(PeoplePrinter.id(code.id)), valid until \(ContentValue.iso8601(code.expiresAt)), for one person to link to you.")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Link to someone by their QR code id.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The QR code id they showed you.") var qrCode: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run { try await add() }
        }

        @MainActor
        func add() async throws {
            let roles = try role.roles()
            let screen = try await ContactsCommand.screen(options)
            try await screen.send(.addByQRCodeTapped)
            try await screen.send(.qrCodeTextChanged(qrCode))
            try await screen.send(.lookUpQRCodeTapped)
            guard let owner = screen.state.qrCode?.match?.owner else { throw DomainError.notFound("QR code \(qrCode)") }
            try await screen.send(.qrCodeRolesChanged(roles))
            try await screen.send(.addByQRCodeConfirmed)
            guard let contact = screen.state.contacts.first(where: { $0.id == owner.userID }) else {
                throw DomainError.internal("\(owner.name) is not in the list after linking")
            }
            if options.json {
                try CommandOutput.json(PeoplePrinter.contactJSON(contact))
            } else {
                print("Linked to \(contact.name) as your \(contact.roles.names.joined(separator: " & ")).")
            }
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite someone by phone number.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Their number, in international form.") var phone: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run { try await invite() }
        }

        @MainActor
        func invite() async throws {
            let roles = try role.roles()
            let screen = try await ContactsCommand.screen(options)
            try await screen.send(.invitePhoneChanged(phone))
            try await screen.send(.inviteRolesChanged(roles))
            try await screen.send(.inviteTapped)
            guard
                let invitation = screen.responses.lazy.compactMap({ action -> InvitationSummary? in
                    if case .invited(.success(let invitation)) = action { invitation } else { nil }
                }).first
            else { throw DomainError.internal("The invitation was not sent") }
            if options.json {
                try CommandOutput.json(["id": PeoplePrinter.id(invitation.id), "status": invitation.status.rawValue])
            } else {
                print("Invited \(invitation.inviteePhone); they will see it when they sign in.")
            }
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept an invitation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The invitation's id.") var invitation: UUID

        func run() async throws {
            try await CommandOutput.run { try await accept() }
        }

        @MainActor
        func accept() async throws {
            let screen = try await ContactsCommand.screen(options)
            guard let pending = screen.state.receivedInvitations.first(where: { $0.id == invitation }) else {
                throw DomainError.notFound("Invitation \(PeoplePrinter.id(invitation))")
            }
            try await screen.send(.acceptInvitationTapped(invitation))
            if options.json { try CommandOutput.json(["accepted": PeoplePrinter.id(invitation)]) } else { print("Linked to \(pending.inviterName).") }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline an invitation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The invitation's id.") var invitation: UUID

        func run() async throws {
            try await CommandOutput.run { try await decline() }
        }

        @MainActor
        func decline() async throws {
            let screen = try await ContactsCommand.screen(options)
            try await screen.send(.declineInvitationTapped(invitation))
            if options.json { try CommandOutput.json(["status": "declined"]) } else { print("Invitation declined.") }
        }
    }

    struct Roles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change what a contact is to you.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact: their id or name.") var contact: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run { try await change() }
        }

        @MainActor
        func change() async throws {
            let roles = try role.roles()
            let screen = try await ContactsCommand.screen(options)
            let target = try ContactReference.resolve(contact, in: screen.state.contacts)
            if target.roles != roles {
                try await screen.send(.rolesTapped(target.id, roles))
                try await ContactsCommand.confirm(screen)
            }
            let changed = screen.state.contacts.first { $0.id == target.id } ?? target
            // Becoming their responder waits for them: the request is what was sent.
            let pending = screen.responses.lazy.compactMap { action -> RoleRequest? in
                if case .changeApplied(.success(.roles(let outcome))) = action { outcome.pendingRequest } else { nil }
            }.first
            if options.json {
                var json = PeoplePrinter.contactJSON(changed)
                if let pending { json["pending_request"] = PeoplePrinter.id(pending.id) }
                try CommandOutput.json(json)
            } else {
                print("\(changed.name) is now your \(changed.roles.names.joined(separator: " & ")).")
                if let notice = screen.state.notice, let pending {
                    print("\(notice) · \(PeoplePrinter.id(pending.id))")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a contact (both sides of the link).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact: their id or name.") var contact: String

        func run() async throws {
            try await CommandOutput.run { try await remove() }
        }

        @MainActor
        func remove() async throws {
            let screen = try await ContactsCommand.screen(options)
            let target = try ContactReference.resolve(contact, in: screen.state.contacts)
            try await screen.send(.removeTapped(target.id))
            try await ContactsCommand.confirm(screen)
            if options.json { try CommandOutput.json(["removed": PeoplePrinter.id(target.id.rawValue)]) } else { print("Removed \(target.name).") }
        }
    }
}
