import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process for tests: the `lifesignal` executable, a Python stand-in, a browser script.
///
/// Why not Foundation's `Process`: on Linux, `Process.run()` copies 256 bytes out of every
/// `/proc/self/fd` directory entry whatever the entry's size, and when an entry sits at the end
/// of a mapped page the whole test process dies of SIGSEGV (swift-corelibs-foundation PR 5472,
/// not in the 6.3.1 toolchain). With dozens of children per suite, that killed about one CI run
/// in three.
///
/// Here every descriptor has exactly one owner, so none is ever closed twice (a second close
/// can hit a number already reused by a socket of the server under test):
/// - the child's ends of the pipes are closed by `init`, right after the spawn;
/// - each read end belongs to its reader thread, which reads with `read(2)` until end of file
///   and then closes it (no `FileHandle`: its reads trap on an error);
/// - the input's write end belongs to this object (`closeInput()` or `deinit`).
///
/// The pipes are close-on-exec, and the child closes every descriptor from 3 up, so no child
/// keeps another's pipe or a test server's socket open. The child's signal mask is emptied
/// and every signal set to its default: a child started from a Dispatch thread would otherwise
/// inherit a mask that blocks `SIGTERM`.
///
/// Reading and reaping run on threads of their own, never on the cooperative pool: on two
/// cores, two blocked pool threads would starve the in-process server the child talks to.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable { case null, pipe }
    /// Where one of the child's output streams goes.
    public enum Output: Sendable { case capture, inherit, null }

    /// How the child ended and what it wrote.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal that ended the child (as a shell reports it).
        public var status: Int32
        public var output: String
        public var error: String
        /// Whether `finish(within:)` had to signal the child.
        public var timedOut = false
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// Standard output, line by line as it arrives (without the newline); it finishes at the
    /// end of the output. Empty unless the output is captured.
    public let outputLines: AsyncStream<String>

    private let lock = NSLock()
    private var exitStatus: Int32?
    private var openReaders = 0
    private var complete = false
    private var captured: [Data] = [Data(), Data()]
    private var inputDescriptor: Int32 = -1
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `executable` (a path) with `arguments`.
    ///
    /// - Parameter environment: exactly the child's environment; `nil` passes this process's on.
    public init(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        input: Input = .null, output: Output = .capture, error: Output = .capture
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var everySignal = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // Descriptors this process keeps (read ends, the input's write end) and the child's ends,
        // closed here once the child has its copies.
        var kept: [Int32] = []
        var childEnds: [Int32] = []
        func closeAll(_ descriptors: [Int32]) { for fd in descriptors { close(fd) } }
        do {
            switch input {
            case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .pipe:
                let (read, write) = try Self.makePipe()
                kept.append(write)
                childEnds.append(read)
                posix_spawn_file_actions_adddup2(&actions, read, 0)
            }
            var readers: [(fd: Int32, stream: Int)] = []
            for (stream, mode) in [output, error].enumerated() {
                switch mode {
                case .inherit: break
                case .null: posix_spawn_file_actions_addopen(&actions, Int32(stream + 1), "/dev/null", O_WRONLY, 0)
                case .capture:
                    let (read, write) = try Self.makePipe()
                    kept.append(read)
                    childEnds.append(write)
                    readers.append((read, stream))
                    posix_spawn_file_actions_adddup2(&actions, write, Int32(stream + 1))
                }
            }
            guard let addCloseFrom = Self.addCloseFrom else {
                throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc before 2.34)")
            }
            _ = addCloseFrom(&actions, 3)

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
            defer {
                argv.forEach { free($0) }
                envp?.forEach { free($0) }
            }
            var child: pid_t = 0
            let spawned =
                envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
                ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
            closeAll(childEnds)
            childEnds = []
            guard spawned == 0 else {
                throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
            }
            pid = child
            let (lines, linesContinuation) = AsyncStream<String>.makeStream()
            outputLines = lines
            if input == .pipe { inputDescriptor = kept[0] }
            openReaders = readers.count
            if !readers.contains(where: { $0.stream == 0 }) { linesContinuation.finish() }
            for reader in readers {
                Thread.detachNewThread { [self] in
                    drain(reader.fd, stream: reader.stream, lines: reader.stream == 0 ? linesContinuation : nil)
                }
            }
            Thread.detachNewThread { [self] in reap() }
        } catch {
            closeAll(childEnds + kept)
            throw error
        }
    }

    deinit {
        if inputDescriptor >= 0 { close(inputDescriptor) }
    }

    /// Runs a command to its end; output and error captured.
    public static func run(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        within limit: Duration = .seconds(600)
    ) async throws -> Result {
        try await ChildProcess(executable, arguments: arguments, environment: environment).finish(within: limit)
    }

    /// Whether the child has not been reaped yet.
    public var isRunning: Bool { lock.withLock { exitStatus == nil } }

    /// Everything written to standard output so far.
    public var outputSoFar: String { lock.withLock { String(decoding: captured[0], as: UTF8.self) } }

    /// Sends `signal` unless the child has already been reaped (its pid may then be another's).
    public func send(_ signal: Int32) {
        lock.withLock {
            if exitStatus == nil { _ = kill(pid, signal) }
        }
    }

    /// Writes to the child's input (given `input: .pipe`); a closed input drops it.
    public func writeInput(_ data: Data) {
        lock.withLock {
            guard inputDescriptor >= 0 else { return }
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                var offset = 0
                while offset < bytes.count {
                    let written = write(inputDescriptor, base + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }

    /// Closes the child's input, so it reads end of file.
    public func closeInput() {
        lock.withLock {
            if inputDescriptor >= 0 { close(inputDescriptor) }
            inputDescriptor = -1
        }
    }

    /// Waits until standard output contains `text` or the child has ended, up to `limit` (a
    /// bound against a hang, not a speed check); the output so far.
    public func output(containing text: String, within limit: Duration = .seconds(60)) async -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            let (output, ended) = lock.withLock { (String(decoding: captured[0], as: UTF8.self), complete) }
            if output.contains(text) || ended || ContinuousClock.now >= deadline { return output }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the child to end and its output to be read.
    public func finish() async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock {
                if !complete { waiters.append(continuation) }
                return complete
            }
            if done { continuation.resume() }
        }
        return lock.withLock {
            Result(
                status: exitStatus ?? -1, output: String(decoding: captured[0], as: UTF8.self),
                error: String(decoding: captured[1], as: UTF8.self))
        }
    }

    /// Waits for the child to end, sending `signal` if it is still running after `limit`.
    public func finish(within limit: Duration, signal: Int32 = SIGKILL) async -> Result {
        let watchdog = Task<Bool, Never> { [self] in
            do { try await Task.sleep(for: limit) } catch { return false }
            guard isRunning else { return false }
            send(signal)
            return true
        }
        var result = await finish()
        watchdog.cancel()
        result.timedOut = await watchdog.value
        return result
    }

    // MARK: - Threads

    /// Reads one stream to its end (on its own thread), then closes it.
    private func drain(_ fd: Int32, stream: Int, lines: AsyncStream<String>.Continuation?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var partialLine = Data()
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let chunk = Data(buffer[0..<count])
            lock.withLock { captured[stream].append(chunk) }
            guard let lines else { continue }
            partialLine.append(chunk)
            while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                lines.yield(String(decoding: partialLine[partialLine.startIndex..<newline], as: UTF8.self))
                partialLine.removeSubrange(partialLine.startIndex...newline)
            }
        }
        close(fd)
        if let lines {
            if !partialLine.isEmpty { lines.yield(String(decoding: partialLine, as: UTF8.self)) }
            lines.finish()
        }
        lock.withLock { openReaders -= 1 }
    }

    /// Reaps the child (on its own thread), then completes once its output is read — or 5 s
    /// after it ended, in case a grandchild still holds a pipe open.
    private func reap() {
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
        // The low seven bits hold the signal that ended the child, 0 for a normal exit.
        let code: Int32 = reaped == -1 ? -1 : (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        lock.withLock { exitStatus = code }
        for _ in 0..<500 where lock.withLock({ openReaders > 0 }) { usleep(10_000) }
        let ready = lock.withLock {
            complete = true
            defer { waiters = [] }
            return waiters
        }
        ready.forEach { $0.resume() }
    }

    // MARK: - Descriptors

    /// A pipe whose both ends are close-on-exec from the start (`pipe2`), so a child started
    /// at the same moment by another thread cannot inherit them.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let made = ends.withUnsafeMutableBufferPointer { buffer -> Int32 in
            if let pipe2 = Self.pipe2 { return pipe2(buffer.baseAddress!, O_CLOEXEC) }
            guard pipe(buffer.baseAddress!) == 0 else { return -1 }
            _ = fcntl(buffer[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(buffer[1], F_SETFD, FD_CLOEXEC)
            return 0
        }
        guard made == 0 else { throw SpawnError(description: "pipe failed: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }

    // glibc has both, but Swift's Glibc module does not declare them.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let pipe2: Pipe2? = symbol("pipe2")

    private static func symbol<T>(_ name: String) -> T? {
        // RTLD_DEFAULT is a null handle on glibc.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
