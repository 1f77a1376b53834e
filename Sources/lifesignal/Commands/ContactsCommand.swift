import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal contacts …`: the people I look out for and who look out for me.
struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts", abstract: "List, link, invite, change or remove contacts.",
        subcommands: [List.self, QR.self, Add.self, Invite.self, Accept.self, Decline.self, Roles.self, Remove.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your contacts and invitations.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run {
                let list = try await options.adapters().contactsClient.contacts()
                let contacts = list.contacts.sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
                if options.json {
                    try CommandOutput.json(["contacts": contacts.map(PeoplePrinter.contactJSON),
                                            "invitations": list.receivedInvitations.map(Self.invitationJSON)])
                    return
                }
                if contacts.isEmpty { print("No contacts yet. Share your QR code: lifesignal contacts qr") }
                let now = Date()
                for contact in contacts { print(PeoplePrinter.line(contact, now: now)) }
                for invitation in list.receivedInvitations where invitation.status == .pending {
                    print("Invitation from \(invitation.inviterName) as your \(invitation.roles.reciprocal.names.joined(separator: " & ")) · \(PeoplePrinter.id(invitation.id))")
                }
                for invitation in list.sentInvitations where invitation.status == .pending {
                    print("Invited \(invitation.inviteePhone) (waiting) · \(PeoplePrinter.id(invitation.id))")
                }
            }
        }

        static func invitationJSON(_ invitation: InvitationSummary) -> [String: String] {
            ["id": PeoplePrinter.id(invitation.id), "from": invitation.inviterName, "status": invitation.status.rawValue,
             "roles": invitation.roles.names.joined(separator: ",")]
        }
    }

    struct QR: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "qr", abstract: "Your QR code id, for someone to link to you.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Issue a new code; the old one stops working.") var reset = false

        func run() async throws {
            try await CommandOutput.run {
                let user = try options.adapters().userClient
                let code = reset ? try await user.resetQRCode() : try await user.profile().qrCodeID
                if options.json { try CommandOutput.json(["qr_code_id": PeoplePrinter.id(code)]) } else { print(PeoplePrinter.id(code)) }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Link to someone by their QR code id.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The QR code id they showed you.") var qrCode: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run {
                guard let code = UUID(uuidString: qrCode) else { throw DomainError.invalidArgument("\"\(qrCode)\" is not a QR code id") }
                let contact = try await options.adapters().contactsClient.addByQRCode(code, try role.roles())
                if options.json { try CommandOutput.json(PeoplePrinter.contactJSON(contact)) } else {
                    print("Linked to \(contact.name) as your \(contact.roles.names.joined(separator: " & ")).")
                }
            }
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite someone by phone number.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Their number, in international form.") var phone: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run {
                let invitation = try await options.adapters().contactsClient.invite(try PhoneNumber(phone), try role.roles())
                if options.json { try CommandOutput.json(["id": PeoplePrinter.id(invitation.id), "status": invitation.status.rawValue]) } else {
                    print("Invited \(invitation.inviteePhone); they will see it when they sign in.")
                }
            }
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept an invitation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The invitation's id.") var invitation: UUID

        func run() async throws {
            try await CommandOutput.run {
                let contact = try await options.adapters().contactsClient.acceptInvitation(invitation)
                if options.json { try CommandOutput.json(PeoplePrinter.contactJSON(contact)) } else { print("Linked to \(contact.name).") }
            }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline an invitation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The invitation's id.") var invitation: UUID

        func run() async throws {
            try await CommandOutput.run {
                try await options.adapters().contactsClient.declineInvitation(invitation)
                if options.json { try CommandOutput.json(["status": "declined"]) } else { print("Invitation declined.") }
            }
        }
    }

    struct Roles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change what a contact is to you.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact: their id or name.") var contact: String
        @OptionGroup var role: RoleOption

        func run() async throws {
            try await CommandOutput.run {
                let client = try options.adapters().contactsClient
                let target = try ContactReference.resolve(contact, in: try await client.contacts().contacts)
                let changed = try await client.updateRoles(target.id, try role.roles())
                if options.json { try CommandOutput.json(PeoplePrinter.contactJSON(changed)) } else {
                    print("\(changed.name) is now your \(changed.roles.names.joined(separator: " & ")).")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a contact (both sides of the link).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact: their id or name.") var contact: String

        func run() async throws {
            try await CommandOutput.run {
                let client = try options.adapters().contactsClient
                let target = try ContactReference.resolve(contact, in: try await client.contacts().contacts)
                try await client.remove(target.id)
                if options.json { try CommandOutput.json(["removed": PeoplePrinter.id(target.id.rawValue)]) } else { print("Removed \(target.name).") }
            }
        }
    }
}
