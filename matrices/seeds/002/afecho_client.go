// afecho_client: the Go echo client of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml,
// with the source's flags (its help's typo included).
//
// Pipelined, as the source's: one connection; a reader goroutine counts
// the echoed lines (and checks each is the message) while the main loop
// writes the message -m and a newline -c times, one write each, never
// waiting for an echo.  The time runs from the first write to the last
// echo read (connect excluded), and the source's lines are printed:
//
//	normal quit.
//	net=unix , msg.size=10 , r=500000 ,w=500000 , time=1.430734597s avg=349470.825021/s
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	addr := flag.String("a", "/tmp/afecho.ipc", "unix: /tmp/afecho.ipc , tcp: localhost:12345")
	count := flag.Int("c", 100000, "total count of message")
	msg := flag.String("m", "HelloWorld", "HelloWorld")
	network := flag.String("n", "unix", "netrowk : tcp / unix")
	flag.Parse()

	c, err := net.Dial(*network, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	line := []byte(*msg + "\n")
	got := make(chan int, 1)
	go func() {
		rd := bufio.NewReaderSize(c, 64*1024)
		r := 0
		for r < *count {
			l, err := rd.ReadSlice('\n')
			if err != nil {
				fmt.Fprintln(os.Stderr, "read:", err, "after", r, "lines")
				os.Exit(1)
			}
			if !bytes.Equal(l, line) {
				fmt.Fprintf(os.Stderr, "line %d came back as %q\n", r+1, l)
				os.Exit(1)
			}
			r++
		}
		got <- r
	}()
	w := 0
	start := time.Now()
	for w < *count {
		if _, err := c.Write(line); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			os.Exit(1)
		}
		w++
	}
	r := <-got
	d := time.Since(start)
	c.Close()
	fmt.Println("normal quit.")
	fmt.Printf("net=%s , msg.size=%d , r=%d ,w=%d , time=%v avg=%f/s\n",
		*network, len(*msg), r, w, d, float64(r)/d.Seconds())
}
