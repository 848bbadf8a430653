// rtt_client: the request/response client of source experiment 000
// (shared/seeds/000), written anew for matrices/seeds/000_go_rtt.yaml.
//
// One connection; -n times: write -r bytes, read exactly -s bytes back.
// Each round trip is timed from just before its write to just after its
// response is read (the source started the clock after write returned),
// and the mean is printed in microseconds, labelled so (the source's label
// said ms over a figure in us):
//
//	2026/12/01 06:00:00 rtt_client.go:60: 10000 request done, avg rtt 31.234567 us
package main

import (
	"flag"
	"io"
	"log"
	"net"
	"strconv"
	"time"
)

func main() {
	host := flag.String("h", "127.0.0.1", "server host")
	port := flag.Int("p", 9876, "server port")
	reqSize := flag.Int("r", 4096, "request size, bytes")
	respSize := flag.Int("s", 4096, "response size, bytes")
	num := flag.Int("n", 1000, "number of requests")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lshortfile)

	log.Printf("host %s port %d, request size %d, response size %d, request num %d",
		*host, *port, *reqSize, *respSize, *num)
	c, err := net.Dial("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		log.Fatal("connect: ", err)
	}
	defer c.Close()

	req := make([]byte, *reqSize)
	resp := make([]byte, *respSize)
	var total time.Duration
	for i := 0; i < *num; i++ {
		t0 := time.Now()
		if _, err := c.Write(req); err != nil {
			log.Fatalf("write, request %d: %v", i+1, err)
		}
		if _, err := io.ReadFull(c, resp); err != nil {
			log.Fatalf("read, request %d: %v", i+1, err)
		}
		total += time.Since(t0)
	}
	avg := 0.0
	if *num > 0 {
		avg = float64(total.Nanoseconds()) / 1e3 / float64(*num)
	}
	log.Printf("%d request done, avg rtt %f us", *num, avg)
}
