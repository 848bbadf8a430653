// afecho_client: the Go echo client of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml.
//
// One connection; -c times: write the message -m, read as many bytes back.
// Times the loop (connect excluded) and prints the source's line:
//
//	net=unix , msg.size=10 , r=500000 ,w=500000 , time=1.430734597s avg=349470.825021/s
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

func main() {
	network := flag.String("n", "unix", "network : tcp / unix")
	addr := flag.String("a", "/tmp/afecho.ipc", "unix: /tmp/afecho.ipc , tcp: localhost:12345")
	count := flag.Int("c", 100000, "total count of message")
	msg := flag.String("m", "HelloWorld", "the message")
	flag.Parse()

	c, err := net.Dial(*network, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	out := []byte(*msg)
	in := make([]byte, len(out))
	r, w := 0, 0
	start := time.Now()
	for w < *count {
		if _, err := c.Write(out); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			os.Exit(1)
		}
		w++
		if _, err := io.ReadFull(c, in); err != nil {
			fmt.Fprintln(os.Stderr, "read:", err)
			os.Exit(1)
		}
		r++
	}
	d := time.Since(start)
	c.Close()
	fmt.Println("normal quit.")
	fmt.Printf("net=%s , msg.size=%d , r=%d ,w=%d , time=%v avg=%f/s\n",
		*network, len(out), r, w, d, float64(r)/d.Seconds())
}
