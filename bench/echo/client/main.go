// The Go echo client of `make bench` (bench/run.sh): the source 002 cell's
// client, written for the bench.  One connection; -w untimed round trips,
// then -c timed ones (write -s bytes, read as many back, checked), and
// prints "msgs_per_s X" (round trips per second of the timed loop).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

func die(what string, err error) {
	fmt.Fprintln(os.Stderr, "echo_client:", what+":", err)
	os.Exit(1)
}

func main() {
	network := flag.String("n", "unix", "unix or tcp")
	addr := flag.String("a", "", "unix: a socket path; tcp: 127.0.0.1:PORT")
	count := flag.Int("c", 100000, "timed round trips")
	warmup := flag.Int("w", 1000, "untimed round trips first")
	size := flag.Int("s", 10, "message size in bytes")
	flag.Parse()

	c, err := net.Dial(*network, *addr)
	if err != nil {
		die("dial", err)
	}
	out := bytes.Repeat([]byte("HelloWorld"), *size/10+1)[:*size]
	in := make([]byte, *size)
	var start time.Time
	for i := 0; i < *warmup+*count; i++ {
		if i == *warmup {
			start = time.Now()
		}
		if _, err := c.Write(out); err != nil {
			die("write", err)
		}
		if _, err := io.ReadFull(c, in); err != nil {
			die("read", err)
		}
		if !bytes.Equal(in, out) {
			die("check", fmt.Errorf("the echo differs from the message"))
		}
	}
	d := time.Since(start)
	c.Close()
	fmt.Printf("msgs_per_s %.6g\n", float64(*count)/d.Seconds())
}
