// fuzz seed 2 #11983: IndexError in passes/legalize.py verify: a function whose body is empty
// expect: error "'func.func': function body must end with a return"
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
}
