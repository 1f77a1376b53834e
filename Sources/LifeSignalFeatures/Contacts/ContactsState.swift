import Foundation
import LifeSignalDomain

extension ContactsFeature {
    public struct State: Equatable, Sendable {
        public var contacts: [ContactSummary]
        /// Invitations I sent that nobody has answered yet.
        public var sentInvitations: [InvitationSummary]
        /// Invitations waiting for my answer.
        public var receivedInvitations: [InvitationSummary]
        /// Contacts asking to become my responder, waiting for my answer.
        public var receivedRoleRequests: [RoleRequest]
        /// My requests to become a contact's responder, waiting for theirs.
        public var sentRoleRequests: [RoleRequest]
        public var isLoading: Bool
        /// The last failure, as ``DomainError/message`` words it, or a reason input was refused.
        public var errorMessage: String?
        /// What a request did that the person should know, such as a role change that waits
        /// for the other's consent.
        public var notice: String?

        /// The add-by-QR-code sheet, while it is open; `nil` closes it and forgets everything
        /// typed into it, which is what cancelling means.
        public var qrCode: QRCodeFlow?

        public var invitePhoneText: String
        /// `nil` until the person picks: the app never guesses who looks out for whom.
        public var inviteRoles: ContactRoles?
        /// An invitation is being sent; repeated taps are ignored so one tap sends one SMS.
        public var isInviting: Bool

        /// The received invitation being accepted or declined; one at a time, so a double tap
        /// cannot answer twice.
        public var answeringInvitationID: UUID?
        /// The role request being accepted, declined or withdrawn; one at a time, likewise.
        public var answeringRoleRequestID: UUID?

        /// A role change or removal waiting for "Are you sure?": both sides of a link see it,
        /// so nothing is sent until the person confirms.
        public var pendingChange: PendingChange?
        /// The confirmed change is being sent; the dialog stays up until it has succeeded so a
        /// failure can be retried or cancelled.
        public var isApplyingChange: Bool

        public init(
            contacts: [ContactSummary] = [], sentInvitations: [InvitationSummary] = [],
            receivedInvitations: [InvitationSummary] = [], receivedRoleRequests: [RoleRequest] = [],
            sentRoleRequests: [RoleRequest] = [], isLoading: Bool = false, errorMessage: String? = nil, notice: String? = nil,
            qrCode: QRCodeFlow? = nil, invitePhoneText: String = "", inviteRoles: ContactRoles? = nil,
            isInviting: Bool = false, answeringInvitationID: UUID? = nil, answeringRoleRequestID: UUID? = nil,
            pendingChange: PendingChange? = nil, isApplyingChange: Bool = false
        ) {
            self.contacts = contacts
            self.sentInvitations = sentInvitations
            self.receivedInvitations = receivedInvitations
            self.receivedRoleRequests = receivedRoleRequests
            self.sentRoleRequests = sentRoleRequests
            self.isLoading = isLoading
            self.errorMessage = errorMessage
            self.notice = notice
            self.qrCode = qrCode
            self.invitePhoneText = invitePhoneText
            self.inviteRoles = inviteRoles
            self.isInviting = isInviting
            self.answeringInvitationID = answeringInvitationID
            self.answeringRoleRequestID = answeringRoleRequestID
            self.pendingChange = pendingChange
            self.isApplyingChange = isApplyingChange
        }

        /// By name, ignoring case, so "ben" sits between "Anna" and "Carl"; ties by id so the
        /// order is stable between reloads.
        public var sortedContacts: [ContactSummary] {
            contacts.sorted { lhs, rhs in
                let order = lhs.name.localizedCaseInsensitiveCompare(rhs.name)
                return order == .orderedSame ? lhs.id.description < rhs.id.description : order == .orderedAscending
            }
        }

        /// What waits for my answer: invitations and role requests received.
        public var badge: Int { receivedInvitations.count + receivedRoleRequests.count }

        /// The contact the confirmation dialog is about, to name them in it.
        public var pendingChangeContact: ContactSummary? {
            pendingChange.flatMap { change in contacts.first { $0.id == change.contactID } }
        }
    }

    /// Adding someone by their QR code: scan or paste it, see whose it is, pick roles, confirm.
    public struct QRCodeFlow: Equatable, Sendable {
        /// A looked-up code and its owner, kept together so confirming adds exactly the person
        /// shown, whatever the text field says by then.
        public struct Match: Equatable, Sendable {
            public var qrCodeID: UUID
            public var owner: QRCodeOwner

            public init(qrCodeID: UUID, owner: QRCodeOwner) {
                self.qrCodeID = qrCodeID
                self.owner = owner
            }
        }

        /// What was scanned or pasted.
        public var codeText: String
        /// `nil` until the person picks, as for invitations.
        public var roles: ContactRoles?
        public var match: Match?
        public var isLookingUp: Bool
        /// The link is being made; edits are ignored so the request and the sheet agree.
        public var isAdding: Bool

        public init(codeText: String = "", roles: ContactRoles? = nil, match: Match? = nil, isLookingUp: Bool = false, isAdding: Bool = false) {
            self.codeText = codeText
            self.roles = roles
            self.match = match
            self.isLookingUp = isLookingUp
            self.isAdding = isAdding
        }
    }

    /// What a confirmed change did: the roles now in force (and the part waiting for the
    /// other's consent), or the removal.
    public enum AppliedChange: Equatable, Sendable {
        case roles(RoleChangeOutcome)
        case removal(UserID)
    }

    /// A change to an existing link that needs confirming first.
    public enum PendingChange: Equatable, Sendable {
        case roles(UserID, ContactRoles)
        case removal(UserID)

        public var contactID: UserID {
            switch self {
            case .roles(let id, _), .removal(let id): id
            }
        }
    }

    /// What the screen tells after a request; the wording is part of the screen.
    enum Notice {
        static func waiting(for request: RoleRequest) -> String {
            "Request sent, waiting for \(request.ownerName) to accept you as their responder"
        }
    }

    /// Why input was refused before any request; the wording is part of the screen.
    enum Refusal {
        static func notAQRCode(_ text: String) -> String {
            "\"\(text)\" is not a LifeSignal QR code; scan it again or paste the whole code"
        }

        static let chooseRoles = "Choose whether they are your responder, your dependent or both"
    }
}
