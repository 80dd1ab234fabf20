package docstore

// fairQueue is the committer's queue: a FIFO per caller, served in turn, so that one caller's
// backlog of costly batches does not hold up another caller's small commit. A caller's own
// batches keep their order (exactly-once and the caller's reads depend on it); different
// callers' batches touch different documents (users/{caller}), so their order is free.
//
// Every group starts with the caller first in the ring, after the caller that went first in the
// group before has moved to the back, and takes one batch per caller in ring order, round after
// round, as long as the group's cost and writes stay within their bounds (a batch that does not
// fit waits for a later group, and the others still go). A caller with a batch queued is thus
// first in a group within as many groups as there are callers ahead of it, each bounded by
// maxGroupCost (or by one batch of at most MaxCommitCost), and a costly batch goes in a group
// of its own: a light caller behind one heavy caller's backlog waits for the group in progress,
// then goes first.
type fairQueue struct {
	byCaller map[string][]*pending
	ring     []string // callers with batches queued, in turn order
	held     int
	last     string // the caller that went first in the last group
}

func newFairQueue() *fairQueue { return &fairQueue{byCaller: map[string][]*pending{}} }

func (q *fairQueue) len() int { return q.held }

func (q *fairQueue) push(p *pending) {
	if len(q.byCaller[p.caller]) == 0 {
		q.ring = append(q.ring, p.caller)
	}
	q.byCaller[p.caller] = append(q.byCaller[p.caller], p)
	q.held++
}

// fill takes the commits waiting in ch without waiting, while fewer than limit are held: the
// queue's memory is bounded, and the channel's back-pressure on writers still holds.
func (q *fairQueue) fill(ch <-chan *pending, limit int) {
	for q.held < limit {
		select {
		case p := <-ch:
			q.push(p)
		default:
			return
		}
	}
}

// group takes the next group: see fairQueue. Its first batch always goes.
func (q *fairQueue) group(maxCost, maxWrites int) []*pending {
	if len(q.ring) == 0 {
		return nil
	}
	if len(q.ring) > 1 && q.ring[0] == q.last {
		q.ring = append(q.ring[1:], q.last)
	}
	q.last = q.ring[0]
	var group []*pending
	cost, writes := 0, 0
	for took := true; took && len(q.ring) > 0 && cost < maxCost && writes < maxWrites; {
		took = false
		for i := 0; i < len(q.ring); {
			caller := q.ring[i]
			p := q.byCaller[caller][0]
			w := max(1, len(p.writes))
			if len(group) > 0 && (cost+p.cost > maxCost || writes+w > maxWrites) {
				i++
				continue
			}
			group = append(group, p)
			cost, writes, took = cost+p.cost, writes+w, true
			q.held--
			q.byCaller[caller][0] = nil // the backing array does not keep an answered batch
			if rest := q.byCaller[caller][1:]; len(rest) > 0 {
				q.byCaller[caller] = rest
				i++
			} else {
				delete(q.byCaller, caller)
				q.ring = append(q.ring[:i], q.ring[i+1:]...)
			}
		}
	}
	return group
}
