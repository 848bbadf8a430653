// PushSender: a PUSH sender of source experiment 001 (shared/seeds/001),
// written anew for matrices/seeds/001_zmq_push_pull.yaml with JeroMQ
// (Debian's libjeromq-java, 0.3.6).
//
//   java -cp /usr/share/java/jeromq.jar:DIR PushSender ENDPOINT COUNT SIZE
//
// One PUSH socket connected to ENDPOINT; sends COUNT messages of SIZE bytes
// (bytes 0, 1, 2, ... as the source's payload) and prints the source's line:
//
//   Sent 250000 msgs (size=100) in 0.812s => 307882 msgs/s, 29.36 MiB/s
//
// timed from before the connect to after the close, as the source timed its
// senders (a PUSH returns before delivery: the receiver's figure is the one
// that counts).  The matrix runs 4 of these where the source ran 4
// goroutines in one process.  Then waits, untimed, until every queued
// message is handed over (context term, linger infinite).
import java.util.Locale;
import org.zeromq.ZMQ;

public class PushSender {
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: PushSender ENDPOINT COUNT SIZE");
            System.exit(2);
        }
        String endpoint = args[0];
        long count = Long.parseLong(args[1]);
        int size = Integer.parseInt(args[2]);
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++)
            payload[i] = (byte) i;

        ZMQ.Context ctx = ZMQ.context(1);
        long start = System.nanoTime();
        ZMQ.Socket sock = ctx.socket(ZMQ.PUSH);
        sock.setLinger(-1);
        sock.connect(endpoint);
        for (long i = 0; i < count; i++)
            if (!sock.send(payload, 0)) {
                System.err.println("send failed after " + i + " messages");
                System.exit(1);
            }
        sock.close();
        double secs = (System.nanoTime() - start) / 1e9;
        ctx.term();
        System.out.print(String.format(Locale.ROOT, "Sent %d msgs (size=%d) in %.3fs => %.0f msgs/s, %.2f MiB/s%n",
                count, size, secs, count / secs, count * (double) size / 1048576 / secs));
        System.out.flush();
    }
}
