import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hex,
  http,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { compileSolidity } from './solidity.ts'

/** Anvil's first dev account (funded with 10 000 ETH at start); tests sign with it in place of the enclave. */
export const ANVIL_DEV_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/**
 * Minimal token contracts for transaction tests: just enough of ERC-20,
 * ERC-721 (+ ERC-165) and ERC-1155 to emit the standard events, and a
 * contract whose call reverts with a reason. Not for anything but tests:
 * no receiver checks on the safe transfers, anyone may mint.
 */
export const TEST_TOKENS_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract TestERC20 {
  string public name; string public symbol; uint8 public decimals; uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  constructor(string memory n, string memory s, uint8 d) { name = n; symbol = s; decimals = d; }
  function mint(address to, uint256 amount) external { totalSupply += amount; balanceOf[to] += amount; emit Transfer(address(0), to, amount); }
  function transfer(address to, uint256 amount) external returns (bool) { _move(msg.sender, to, amount); return true; }
  function approve(address spender, uint256 amount) external returns (bool) {
    allowance[msg.sender][spender] = amount; emit Approval(msg.sender, spender, amount); return true;
  }
  function transferFrom(address from, address to, uint256 amount) external returns (bool) {
    uint256 a = allowance[from][msg.sender];
    if (a != type(uint256).max) { require(a >= amount, "ERC20: insufficient allowance"); allowance[from][msg.sender] = a - amount; }
    _move(from, to, amount); return true;
  }
  function _move(address from, address to, uint256 amount) internal {
    require(balanceOf[from] >= amount, "ERC20: insufficient balance");
    balanceOf[from] -= amount; balanceOf[to] += amount; emit Transfer(from, to, amount);
  }
}

contract TestERC721 {
  string public name = "Test NFT"; string public symbol = "TNFT";
  mapping(uint256 => address) public ownerOf;
  mapping(address => uint256) public balanceOf;
  mapping(uint256 => address) public getApproved;
  mapping(address => mapping(address => bool)) public isApprovedForAll;
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
  event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
  function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x01ffc9a7 || id == 0x80ac58cd; }
  function mint(address to, uint256 id) external {
    require(ownerOf[id] == address(0), "ERC721: minted"); ownerOf[id] = to; balanceOf[to]++; emit Transfer(address(0), to, id);
  }
  function approve(address to, uint256 id) external {
    address o = ownerOf[id]; require(msg.sender == o || isApprovedForAll[o][msg.sender], "ERC721: not authorized");
    getApproved[id] = to; emit Approval(o, to, id);
  }
  function setApprovalForAll(address op, bool ok) external { isApprovedForAll[msg.sender][op] = ok; emit ApprovalForAll(msg.sender, op, ok); }
  function transferFrom(address from, address to, uint256 id) public {
    require(ownerOf[id] == from, "ERC721: wrong owner");
    require(msg.sender == from || getApproved[id] == msg.sender || isApprovedForAll[from][msg.sender], "ERC721: not authorized");
    delete getApproved[id]; ownerOf[id] = to; balanceOf[from]--; balanceOf[to]++; emit Transfer(from, to, id);
  }
  function safeTransferFrom(address from, address to, uint256 id) external { transferFrom(from, to, id); }
  function safeTransferFrom(address from, address to, uint256 id, bytes calldata) external { transferFrom(from, to, id); }
}

contract TestERC1155 {
  mapping(uint256 => mapping(address => uint256)) private balances;
  mapping(address => mapping(address => bool)) public isApprovedForAll;
  event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
  event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
  event ApprovalForAll(address indexed account, address indexed operator, bool approved);
  function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x01ffc9a7 || id == 0xd9b67a26; }
  function balanceOf(address account, uint256 id) external view returns (uint256) { return balances[id][account]; }
  function mint(address to, uint256 id, uint256 amount) external {
    balances[id][to] += amount; emit TransferSingle(msg.sender, address(0), to, id, amount);
  }
  function setApprovalForAll(address op, bool ok) external { isApprovedForAll[msg.sender][op] = ok; emit ApprovalForAll(msg.sender, op, ok); }
  function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata) external {
    _move(from, to, id, amount); emit TransferSingle(msg.sender, from, to, id, amount);
  }
  function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata amounts, bytes calldata) external {
    require(ids.length == amounts.length, "ERC1155: length mismatch");
    for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], amounts[i]);
    emit TransferBatch(msg.sender, from, to, ids, amounts);
  }
  function _move(address from, address to, uint256 id, uint256 amount) internal {
    require(msg.sender == from || isApprovedForAll[from][msg.sender], "ERC1155: not authorized");
    require(balances[id][from] >= amount, "ERC1155: insufficient balance");
    balances[id][from] -= amount; balances[id][to] += amount;
  }
}

contract TestNoDecimals { string public symbol = "BARE"; }

contract TestReverter {
  uint256 public count;
  function poke() external { count++; revert("Reverter: always reverts"); }
}
`

/** A deployed test contract: its address and ABI. */
export interface DeployedContract {
  address: Address
  abi: Abi
}

export interface TestTokens {
  /** 'Test USD' (TUSD), 6 decimals; `mintTo` holds 1 000 TUSD. */
  erc20: DeployedContract
  /** 'Test NFT' (TNFT); `mintTo` owns tokens 1, 2 and 3. */
  erc721: DeployedContract
  /** `mintTo` holds 10 of id 1 and 5 of id 2. */
  erc1155: DeployedContract
  /** A token with `symbol()` but no `decimals()` (so readers default to 18). */
  noDecimals: DeployedContract
  /** `poke()` always reverts with 'Reverter: always reverts'. */
  reverter: DeployedContract
}

export interface DeployTestTokensParameters {
  /** The dev account's private key that deploys and pays; default Anvil's first account. */
  deployer?: Hex
  /** Who receives the minted tokens. */
  mintTo: Address
}

/**
 * Deploys the test tokens to a node (usually Anvil) and mints some to
 * `mintTo`. Every transaction is sent with a precomputed nonce in one go,
 * then the last receipt awaited, so a deploy costs one round of mining.
 *
 * @example
 * const anvil = await startAnvil()
 * const tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: account.address })
 * await client.readContract({ ...tokens.erc20, functionName: 'balanceOf', args: [account.address] })
 */
export async function deployTestTokens(
  rpcUrl: string,
  { deployer = ANVIL_DEV_KEY, mintTo }: DeployTestTokensParameters,
): Promise<TestTokens> {
  const contracts = compileSolidity(TEST_TOKENS_SOURCE)
  const get = (name: string) => {
    const contract = contracts[name]
    if (!contract) throw new Error(`${name} did not compile`)
    return contract
  }
  const account = privateKeyToAccount(deployer)
  const transport = http(rpcUrl)
  const publicClient = createPublicClient({ transport, pollingInterval: 50 })
  const chainId = await publicClient.getChainId()
  const chain = defineChain({
    id: chainId,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const wallet = createWalletClient({ account, chain, transport })
  let nonce = await publicClient.getTransactionCount({
    address: account.address,
    blockTag: 'pending',
  })

  const deploys = [
    ['erc20', 'TestERC20', ['Test USD', 'TUSD', 6]],
    ['erc721', 'TestERC721', []],
    ['erc1155', 'TestERC1155', []],
    ['noDecimals', 'TestNoDecimals', []],
    ['reverter', 'TestReverter', []],
  ] as const
  const hashes: Hex[] = []
  const deployed = {} as Record<keyof TestTokens, DeployedContract>
  for (const [key, name, args] of deploys) {
    const { abi, bytecode } = get(name)
    deployed[key] = {
      abi,
      address: getContractAddress({ from: account.address, nonce: BigInt(nonce) }),
    }
    hashes.push(await wallet.deployContract({ abi, bytecode, args: [...args], nonce: nonce++ }))
  }

  const mints = [
    [deployed.erc20, [mintTo, 1_000_000_000n]],
    [deployed.erc721, [mintTo, 1n]],
    [deployed.erc721, [mintTo, 2n]],
    [deployed.erc721, [mintTo, 3n]],
    [deployed.erc1155, [mintTo, 1n, 10n]],
    [deployed.erc1155, [mintTo, 2n, 5n]],
  ] as const
  for (const [contract, args] of mints)
    hashes.push(
      await wallet.writeContract({
        ...contract,
        functionName: 'mint',
        args: [...args],
        // Fixed gas: estimating would run before the deploy above is mined.
        gas: 200_000n,
        nonce: nonce++,
      }),
    )

  const receipts = await Promise.all(
    hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })),
  )
  const failed = receipts.find((r) => r.status !== 'success')
  if (failed) throw new Error(`test token setup failed in ${failed.transactionHash}`)
  return deployed
}
