// PullReceiver: the PULL receiver of source experiment 001
// (shared/seeds/001), written anew for matrices/seeds/001_zmq_push_pull.yaml
// with JeroMQ (Debian's libjeromq-java, 0.3.6: ZeroMQ in pure Java, as the
// source's go-zeromq was ZeroMQ in pure Go).
//
//   java -cp /usr/share/java/jeromq.jar:DIR PullReceiver ENDPOINT COUNT INTERVAL_MS
//
// Binds a PULL socket at ENDPOINT (tcp://127.0.0.1:PORT, ipc://PATH) and counts
// messages.  From the first message on, every INTERVAL_MS it prints the
// source's line, its time counted from the first message (the source
// counted from its own start, so its log began with empty seconds):
//
//   [0.100012s] window=28123 msgs  rate=281230 msgs/s  total=28123
//
// Once it has COUNT messages it prints the last, shorter window (unless
// it is empty) and
//
//   done: 1000000 msgs (size=100) in 3.456789 s from the first message to the last => 289287 msgs/s, 27.59 MiB/s
//
// and exits (the source's receiver never exited).  One thread: it looks at
// the clock after every message, and waits in a poll until the next tick
// when none is queued (the source ticked from a second goroutine).
import java.util.Locale;
import org.zeromq.ZMQ;

public class PullReceiver {
    long total, window, first = -1, lastTick, nextTick;

    void tick(long now) {
        double el = (now - lastTick) / 1e9;
        System.out.print(String.format(Locale.ROOT, "[%.6fs] window=%d msgs  rate=%.0f msgs/s  total=%d%n",
                (now - first) / 1e9, window, el > 0 ? window / el : 0.0, total));
        System.out.flush();
        window = 0;
        lastTick = now;
    }

    void run(String endpoint, long count, long intervalNs) {
        ZMQ.Context ctx = ZMQ.context(1);
        ZMQ.Socket sock = ctx.socket(ZMQ.PULL);
        sock.bind(endpoint);
        System.out.println("tput server listening on " + endpoint);
        System.out.flush();
        ZMQ.Poller poller = new ZMQ.Poller(1);
        poller.register(sock, ZMQ.Poller.POLLIN);

        long bytes = 0;
        int size = 0;
        while (total < count) {
            byte[] msg = sock.recv(ZMQ.DONTWAIT);
            if (msg == null) {
                long waitMs = first < 0 ? 1000 : Math.max(0, (nextTick - System.nanoTime()) / 1000000);
                poller.poll(waitMs);
            } else {
                if (first < 0) {
                    first = lastTick = System.nanoTime();
                    nextTick = first + intervalNs;
                    size = msg.length;
                }
                total++;
                window++;
                bytes += msg.length;
            }
            if (first >= 0) {
                long now = System.nanoTime();
                if (now >= nextTick) {
                    tick(now);
                    nextTick += intervalNs * (1 + (now - nextTick) / intervalNs);
                }
            }
        }
        long now = System.nanoTime();
        if (window > 0)
            tick(now);
        double secs = (now - first) / 1e9;
        System.out.print(String.format(Locale.ROOT, "done: %d msgs (size=%d) in %.6f s from the first message to the last"
                + " => %.0f msgs/s, %.2f MiB/s%n", total, size, secs,
                secs > 0 ? total / secs : 0.0, secs > 0 ? bytes / 1048576.0 / secs : 0.0));
        System.out.flush();
        sock.setLinger(0);
        sock.close();
        ctx.term();
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: PullReceiver ENDPOINT COUNT INTERVAL_MS");
            System.exit(2);
        }
        new PullReceiver().run(args[0], Long.parseLong(args[1]), Long.parseLong(args[2]) * 1000000L);
    }
}
